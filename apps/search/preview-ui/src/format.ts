const integer = new Intl.NumberFormat('en');

export const formatCount = (value: number): string => integer.format(value);

/** Scores that span orders of magnitude (0.016, 0.00016): 4 significant digits. */
export const formatScore = (value: number): string =>
  value === 0 ? '0' : value.toLocaleString('en', { maximumSignificantDigits: 4 });

/** Fixed decimals (similarities, weights, text scores). */
export const formatDecimal = (value: number, digits: number): string =>
  value.toLocaleString('en', { minimumFractionDigits: digits, maximumFractionDigits: digits });

export const formatPercent = (share: number): string =>
  share.toLocaleString('en', { style: 'percent', maximumFractionDigits: 0 });

export const formatPrice = ({ amount, currency }: { amount: number; currency: string }): string => {
  try {
    return amount.toLocaleString('en', { style: 'currency', currency, maximumFractionDigits: 0 });
  } catch {
    // A currency code Intl does not know.
    return `${currency} ${integer.format(amount)}`;
  }
};

/** `2026-12-04T08:30:00` (local, no offset) → `4 Dec 2026`, without moving it to another zone. */
export function formatLocalDate(localDateTime: string): string {
  const match = /^(\d{4})-(\d{2})-(\d{2})/.exec(localDateTime);
  if (!match) return localDateTime;
  const date = new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])));
  return date.toLocaleDateString('en-GB', {
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    timeZone: 'UTC',
  });
}

/** A country's English name from its ISO-2 code, or the code itself. */
export function countryName(code: string): string {
  try {
    return new Intl.DisplayNames(['en'], { type: 'region' }).of(code) ?? code;
  } catch {
    return code;
  }
}
