const ZONE = 'Europe/Zurich';

const partsFormat = new Intl.DateTimeFormat('en-CA', {
  timeZone: ZONE,
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
  hourCycle: 'h23',
  timeZoneName: 'longOffset',
});

/** `2026-11-23T12:34:56.789+01:00`: a moment written in Europe/Zurich local time with its offset. */
export function toZurichIso(moment: Date = new Date()): string {
  const parts = Object.fromEntries(partsFormat.formatToParts(moment).map((p) => [p.type, p.value]));
  const offset = parts.timeZoneName === 'GMT' ? '+00:00' : parts.timeZoneName.replace('GMT', '');
  const millis = String(moment.getUTCMilliseconds()).padStart(3, '0');
  return `${parts.year}-${parts.month}-${parts.day}T${parts.hour}:${parts.minute}:${parts.second}.${millis}${offset}`;
}

/** Today's date (`YYYY-MM-DD`) in Europe/Zurich, which is what "today" means in both services. */
export function zurichToday(moment: Date = new Date()): string {
  return toZurichIso(moment).slice(0, 10);
}
