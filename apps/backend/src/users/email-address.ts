import { domainToASCII, domainToUnicode } from 'node:url';
import { AppError } from '@rt/errors';

/**
 * The canonical form of an email address (docs/decisions.md D-77): what accounts are unique on and
 * found by (users.email_canonical). PostgreSQL compares it byte for byte; it never folds an
 * address itself.
 * - Local part: NFC, lower-cased (Unicode's default, locale-independent mapping), NFC again.
 * - Domain: UTS-46 to ASCII (`url.domainToASCII`: the punycode and Unicode spellings of a domain
 *   are one), lower-case ASCII.
 */

/** Why an address is refused for an account (a stable `reason` of the 422). */
export type EmailRefusal =
  | 'email_invisible_character'
  | 'email_compatibility_character'
  | 'email_invalid_domain'
  | 'email_mixed_script_domain';

export interface CanonicalEmail {
  /** The canonical form; best effort for a refused address, so an existing one still matches. */
  canonical: string;
  /** Null when the address may name an account. */
  refusal: EmailRefusal | null;
}

/**
 * Format characters (zero-width, bidi controls, the BOM, the soft hyphen), controls, separators and
 * spaces, surrogates, private-use and unassigned code points: invisible, or read differently by
 * different programs.
 */
const INVISIBLE = /[\p{Cf}\p{Cc}\p{Z}\p{Cs}\p{Co}\p{Cn}]/u;

const ASCII_LABEL = /^[a-z0-9-]{1,63}$/;
const MAX_DOMAIN_LENGTH = 253;

/** UTS #39 "Highly Restrictive": the mixes of scripts a label may have beside a single script. */
const ALLOWED_MIXES = [
  ['Latn', 'Hani', 'Hira', 'Kana'],
  ['Latn', 'Hani', 'Bopo'],
  ['Latn', 'Hani', 'Hang'],
].map((scripts) => scriptSetTest(scripts));

/**
 * Every script value (ISO 15924 codes) whose Script_Extensions the runtime knows; the characters
 * of each come from the runtime's Unicode tables, never from this file. Names a runtime's older
 * Unicode version lacks are left out.
 */
const SCRIPTS = `Adlm Aghb Ahom Arab Armi Armn Avst Bali Bamu Bass Batk Beng Bhks Bopo Brah Brai Bugi Buhd
  Cakm Cans Cari Cham Cher Chrs Copt Cpmn Cprt Cyrl Deva Diak Dogr Dsrt Dupl Egyp Elba Elym Ethi Gara
  Geor Glag Gong Gonm Goth Gran Grek Gujr Gukh Guru Hang Hani Hano Hatr Hebr Hira Hluw Hmng Hmnp Hung
  Ital Java Kali Kana Kawi Khar Khmr Khoj Kits Knda Krai Kthi Lana Laoo Latn Lepc Limb Lina Linb Lisu
  Lyci Lydi Mahj Maka Mand Mani Marc Medf Mend Merc Mero Mlym Modi Mong Mroo Mtei Mult Mymr Nagm Nand
  Narb Nbat Newa Nkoo Nshu Ogam Olck Onao Orkh Orya Osge Osma Ougr Palm Pauc Perm Phag Phli Phlp Phnx
  Plrd Prti Rjng Rohg Runr Samr Sarb Saur Sgnw Shaw Shrd Sidd Sind Sinh Sogd Sogo Sora Soyo Sund Sunu
  Sylo Syrc Tagb Takr Tale Talu Taml Tang Tavt Telu Tfng Tglg Thaa Thai Tibt Tirh Tnsa Todr Toto Tutg
  Ugar Vaii Vith Wara Wcho Xpeo Xsux Yezi Yiii Zanb`
  .split(/\s+/)
  .flatMap((script) => {
    try {
      return [{ script, test: new RegExp(`^\\p{scx=${script}}$`, 'u') }];
    } catch {
      return [];
    }
  });

/** Common and Inherited characters (digits, the hyphen, combining marks) count for every script. */
const ANY_SCRIPT = /^[\p{scx=Zyyy}\p{scx=Zinh}]$/u;

/** Whether every character of a label belongs to one of `scripts` (or to any script). */
function scriptSetTest(scripts: string[]): (label: string) => boolean {
  const test = new RegExp(
    `^[${scripts.map((s) => `\\p{scx=${s}}`).join('')}\\p{scx=Zyyy}\\p{scx=Zinh}]*$`,
    'u',
  );
  return (label) => test.test(label);
}

/** UTS #39 "Highly Restrictive" on one label: a single script, or one of the allowed CJK mixes. */
export function isHighlyRestrictiveLabel(label: string): boolean {
  const characters = [...label].filter((character) => !ANY_SCRIPT.test(character));
  if (characters.length === 0) return true;
  const [first, ...rest] = characters;
  const single = SCRIPTS.some(
    ({ test }) => test.test(first) && rest.every((character) => test.test(character)),
  );
  return single || ALLOWED_MIXES.some((allowed) => allowed(label));
}

const canonicalLocalPart = (local: string): string => local.normalize('NFC').toLowerCase().normalize('NFC');

/** The domain in ASCII (UTS-46), or null when it is not a valid domain name. */
function asciiDomainOf(domain: string): string | null {
  const ascii = domainToASCII(domain);
  if (ascii === '' || ascii.length > MAX_DOMAIN_LENGTH) return null;
  return ascii.split('.').every((label) => ASCII_LABEL.test(label)) ? ascii : null;
}

/** ASCII whitespace around an address; String.trim would also drop a byte order mark, which is refused. */
const SURROUNDING_SPACE = /^[ \t\r\n]+|[ \t\r\n]+$/g;

/**
 * The canonical form of `address` and, when it may not name an account, why. Surrounding ASCII
 * whitespace is dropped, as every route does with an address.
 */
export function canonicalEmailOf(address: string): CanonicalEmail {
  const trimmed = address.replace(SURROUNDING_SPACE, '');
  const at = trimmed.lastIndexOf('@');
  const local = at < 0 ? trimmed : trimmed.slice(0, at);
  const domain = at < 0 ? '' : trimmed.slice(at + 1);
  const canonicalLocal = canonicalLocalPart(local);
  const asciiDomain = asciiDomainOf(domain);
  const canonicalDomain = asciiDomain ?? canonicalLocalPart(domain);
  const canonical = at < 0 ? canonicalLocal : `${canonicalLocal}@${canonicalDomain}`;
  return { canonical, refusal: refusalOf(local, domain, asciiDomain) };
}

function refusalOf(local: string, domain: string, asciiDomain: string | null): EmailRefusal | null {
  if (INVISIBLE.test(local) || INVISIBLE.test(domain)) return 'email_invisible_character';
  // Full-width letters, ligatures, superscripts, the long s…: refused rather than folded, so an
  // address is stored as the mailbox it names (docs/decisions.md D-77).
  if (local.normalize('NFKC') !== local.normalize('NFC')) return 'email_compatibility_character';
  if (asciiDomain === null) return 'email_invalid_domain';
  const labels = domainToUnicode(asciiDomain).split('.');
  return labels.every(isHighlyRestrictiveLabel) ? null : 'email_mixed_script_domain';
}

/** The canonical form alone: what a lookup by address compares (a refused address matches only itself). */
export const canonicalEmail = (address: string): string => canonicalEmailOf(address).canonical;

/** Whether two addresses name the same account. */
export const sameEmail = (a: string, b: string): boolean => canonicalEmail(a) === canonicalEmail(b);

const REFUSAL_MESSAGES: Record<EmailRefusal, (field: string) => string> = {
  email_invisible_character: (field) =>
    `The ${field} field must not contain invisible characters (zero-width or bidirectional controls, byte order marks, unusual spaces).`,
  email_compatibility_character: (field) =>
    `The ${field} field must not contain full-width or other compatibility forms of letters; type the plain letters.`,
  email_invalid_domain: (field) => `The ${field} field's domain is not a valid domain name.`,
  email_mixed_script_domain: (field) =>
    `The ${field} field's domain mixes scripts in one label (such as a Cyrillic letter in a Latin name).`,
};

/**
 * The canonical form of an address about to name an account (a signup, an invitation, an email
 * change), or a 422 on `field` with the refusal as `reason`.
 */
export function accountEmailOrRefuse(field: string, address: string): string {
  const { canonical, refusal } = canonicalEmailOf(address);
  if (refusal === null) return canonical;
  throw AppError.validation({ [field]: [REFUSAL_MESSAGES[refusal](field.replaceAll('_', ' '))] }, refusal);
}
