/**
 * Step times: written `HH:MM` (24-hour clock, validated by TimeField), stored in a `time` column,
 * read back `H:i:s` (PHP's notation: two-digit hours, minutes and seconds, `09:30:00`).
 */
const STORED = /^(\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?$/;

/** `09:30` → `09:30:00`, the value written to the column. */
export function toStoredTime(hhmm: string): string {
  return `${hhmm}:00`;
}

/** What PostgreSQL gives back (`09:30:00`, possibly with fractions) → `09:30:00`; null stays null. */
export function toWireTime(stored: string | null): string | null {
  if (stored === null) return null;
  const match = STORED.exec(stored);
  if (!match) throw new Error(`Unexpected time value from the database: ${stored}`);
  return `${match[1]}:${match[2]}:${match[3] ?? '00'}`;
}
