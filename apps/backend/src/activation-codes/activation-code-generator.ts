import { randomBytes } from 'node:crypto';
import { Injectable } from '@nestjs/common';

/**
 * The alphabet of codes: digits and capital letters without the look-alikes 0/O and 1/I. 32
 * symbols, so each character carries 5 bits and a code of 12 carries 60. L stays (a capital L is
 * not mistaken for anything in the alphabet; 1 and I are not in it, and a claim reads them as L).
 */
export const CODE_ALPHABET = '23456789ABCDEFGHJKLMNPQRSTUVWXYZ';
export const CODE_LENGTH = 12;
const GROUP = 4;

/** Random bits of one code: log2(32) × 12 = 60. */
export const CODE_BITS = CODE_LENGTH * Math.log2(CODE_ALPHABET.length);

/** `ABCD-EFGH-JKLM`: three groups of four symbols of the alphabet. */
export const FULL_CODE_PATTERN = new RegExp(
  `^([${CODE_ALPHABET}]{${GROUP}}-){2}[${CODE_ALPHABET}]{${GROUP}}$`,
);

/**
 * Codes from the operating system's cryptographic source (`randomBytes`), each symbol drawn by
 * rejection sampling: a byte is kept only below the largest multiple of the alphabet's size, so
 * every symbol is equally likely whatever the size (with 32 symbols no byte is ever rejected).
 * Uniqueness is the database's job (activation_codes_full_code_unique); a collision is retried by
 * the repository.
 */
@Injectable()
export class ActivationCodeGenerator {
  generate(count: number): string[] {
    const size = CODE_ALPHABET.length;
    const limit = 256 - (256 % size);
    const codes: string[] = [];
    let pool = randomBytes(0);
    let at = 0;
    for (let n = 0; n < count; n++) {
      let symbols = '';
      while (symbols.length < CODE_LENGTH) {
        if (at >= pool.length) {
          pool = randomBytes(Math.max(64, (count - n) * CODE_LENGTH + 16));
          at = 0;
        }
        const byte = pool[at++];
        if (byte < limit) symbols += CODE_ALPHABET[byte % size];
      }
      codes.push(formatCode(symbols));
    }
    return codes;
  }
}

/** `ABCDEFGHJKLM` → `ABCD-EFGH-JKLM`. */
export function formatCode(symbols: string): string {
  return `${symbols.slice(0, GROUP)}-${symbols.slice(GROUP, 2 * GROUP)}-${symbols.slice(2 * GROUP)}`;
}

/**
 * A code as a person typed it → its stored form, or null when it cannot be one: any case, with or
 * without dashes and spaces; `1` and `I` read as `L` (neither is in the alphabet).
 */
export function normalizeTypedCode(typed: string): string | null {
  const symbols = typed.toUpperCase().replace(/[\s-]/g, '').replace(/[1I]/g, 'L');
  if (symbols.length !== CODE_LENGTH) return null;
  for (const symbol of symbols) if (!CODE_ALPHABET.includes(symbol)) return null;
  return formatCode(symbols);
}

const SYMBOLS_LOWER = CODE_ALPHABET.toLowerCase();
const FULL_CODE_LENGTH = CODE_LENGTH + 2;

/**
 * Whether some code of the generator's form could hold `search` as a part, any case (as ILIKE
 * compares: both sides lower-cased): each character a symbol of the alphabet or a dash, the dashes
 * where a code has them. A search that fails cannot match any stored code
 * (activation_codes_full_code_format_check), so the listing answers it without reading; a search
 * without three letters in a row (`----`) would otherwise read every code, the trigram index having
 * nothing to look up.
 */
export function searchFitsCodes(search: string): boolean {
  const typed = [...search].map((character) => character.toLowerCase());
  for (let from = 0; from + typed.length <= FULL_CODE_LENGTH; from++) {
    const fits = typed.every((character, index) =>
      (from + index) % (GROUP + 1) === GROUP
        ? character === '-'
        : character.length === 1 && SYMBOLS_LOWER.includes(character),
    );
    if (fits) return true;
  }
  return false;
}
