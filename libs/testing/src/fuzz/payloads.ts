/**
 * Text that no server should trust: each list is one family of attack or oddity. The schema
 * arbitraries offer them wherever a string goes (and as wrong-typed values elsewhere).
 */
export const SQL_PAYLOADS = [
  "' OR 1=1 --",
  "' OR '1'='1",
  '" OR ""="',
  "'; DROP TABLE users; --",
  '1; DELETE FROM organizations --',
  "1' UNION SELECT NULL, version() --",
  "%' OR '%'='",
  "\\'; --",
  '$1',
  "E'\\\\x00'",
  '::text',
  ');--',
];

export const PATH_TRAVERSAL_PAYLOADS = [
  '../../etc/passwd',
  '..\\..\\windows\\win.ini',
  '/etc/passwd',
  '....//....//etc/passwd',
  '%2e%2e%2f%2e%2e%2fetc%2fpasswd',
  '..',
  '.',
  'file:///etc/passwd',
];

/** Unicode that is valid text: accents, other scripts, astral characters, direction and width tricks. */
export const UNICODE_PAYLOADS = [
  'Zürich Straße',
  'İstanbul ıi',
  '東京 北京',
  'مرحبا بالعالم',
  '😀🚀👩‍👩‍👧',
  '𝕳𝖊𝖑𝖑𝖔',
  'e\u0301\u0301\u0301',
  '\u202Eevil\u202C',
  '\uFEFFbom',
  'zero\u200Bwidth',
  'ﬀ ﬁ ǅ',
  '\u{10FFFF}',
];

/** Text PostgreSQL and UTF-8 cannot hold, and control characters. */
export const UNSAFE_TEXT_PAYLOADS = [
  '\u0000',
  'a\u0000b',
  '\uD800',
  'a\uDC00b',
  '\uDBFF\uDBFF',
  '\r\n\r\nInjected: header',
  '\t',
  '\u0007\u001b[31mred',
  '\u007F',
];

export const FORMAT_PAYLOADS = [
  '',
  ' ',
  '   \t  ',
  '%s%s%s%n',
  '{{7*7}}',
  '${7*7}',
  '<script>alert(1)</script>',
  '__proto__',
  'constructor',
  'null',
  'undefined',
  'NaN',
  'Infinity',
  'true',
  '-1',
  '0',
  '1e309',
  '0x10',
  '[]',
  '{}',
];

export const ALL_TEXT_PAYLOADS = [
  ...SQL_PAYLOADS,
  ...PATH_TRAVERSAL_PAYLOADS,
  ...UNICODE_PAYLOADS,
  ...UNSAFE_TEXT_PAYLOADS,
  ...FORMAT_PAYLOADS,
];

/** An unpaired UTF-16 surrogate somewhere in the string. */
export const hasLoneSurrogate = (text: string): boolean =>
  /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(text);

/** What Node's HTTP client accepts in a header value (it throws on anything else). */
export const isHeaderSafe = (text: string): boolean => !/[^\t\x20-\x7e\x80-\xff]/.test(text);

/**
 * Query-string bytes no decoder accepts as UTF-8, written as they travel: a truncated escape, a
 * bad hex digit, an encoded NUL, an unpaired surrogate as its WTF-8 bytes, an overlong `/`.
 */
export const RAW_QUERY_ENCODINGS = ['%', '%ZZ', '%00', '%ED%A0%80', '%C0%AF', '%FF%FE', 'a%2', '%E2%82'];

/**
 * Dates at the edges of what a calendar, JavaScript or PostgreSQL hold (D-71): the first and
 * last four-digit years, JavaScript's last day (+275760-09-13), a leap day and a day that does not
 * exist, a negative year. Every date field of a contract gets each of them (`dateExtremeRequests`):
 * a service may refuse them (422), never fail on them (5xx).
 */
export const DATE_EXTREMES = [
  '0001-01-01',
  '9999-12-31',
  '+275760-09-13',
  '2028-02-29',
  '2027-02-29',
  '-000001-01-01',
];

/** The same edges as date-times with a zone, and the last instant of year 9999. */
export const DATE_TIME_EXTREMES = [
  ...DATE_EXTREMES.map((date) => `${date}T00:00:00Z`),
  '9999-12-31T23:59:59.999Z',
  '0001-01-01T00:00:00+14:00',
];
