import type { FieldErrors } from '@rt/errors';

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** Percent-decodes to bytes (`+` is a space), leaving a malformed escape as it is. */
function bytesOf(text: string): Uint8Array {
  const bytes: number[] = [];
  const raw = Buffer.from(text.replace(/\+/g, ' '), 'utf8');
  for (let i = 0; i < raw.length; i++) {
    const hex = raw[i] === 0x25 && i + 2 < raw.length ? raw.toString('latin1', i + 1, i + 3) : '';
    if (/^[0-9a-fA-F]{2}$/.test(hex)) {
      bytes.push(parseInt(hex, 16));
      i += 2;
    } else bytes.push(raw[i]);
  }
  return Uint8Array.from(bytes);
}

/**
 * The parameters of a raw query string (`a=1&b=%FF`) whose percent-decoded bytes are not UTF-8:
 * the query parser keeps such a value as its literal escapes ("%FF"), so without this check a
 * search would look for the text "%FF". Reported under the parameter's name (or `query` when the
 * name itself is not UTF-8), in the service's style ("search must be valid UTF-8 text.",
 * docs/decisions.md D-74), never echoing the bytes. NUL characters and lone surrogates are the
 * validation pipe's (findUnsafeInput).
 */
export function invalidUtf8Parameters(queryString: string): FieldErrors | null {
  const problems: FieldErrors = {};
  for (const pair of queryString.split('&')) {
    if (!pair) continue;
    const at = pair.indexOf('=');
    const [rawKey, rawValue] = at < 0 ? [pair, ''] : [pair.slice(0, at), pair.slice(at + 1)];
    let key: string;
    try {
      key = utf8.decode(bytesOf(rawKey)).replace(/\[.*$/, '');
    } catch {
      problems.query = ['query must be valid UTF-8 text; a parameter name is not.'];
      continue;
    }
    try {
      utf8.decode(bytesOf(rawValue));
    } catch {
      problems[key] = [`${key} must be valid UTF-8 text.`];
    }
  }
  return Object.keys(problems).length > 0 ? problems : null;
}
