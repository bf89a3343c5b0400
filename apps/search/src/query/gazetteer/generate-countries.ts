import { writeFileSync } from 'node:fs';
import * as isoCountries from 'i18n-iso-countries';
import { LANGUAGES, type Language } from '../analysis/languages';
import { COUNTRIES_PATH, foldName, PLACE_HEADER } from './gazetteer';

/**
 * Writes countries.tsv, the gazetteer's countries (GAZETTEER.md), from the i18n-iso-countries
 * package (pinned in package.json): every ISO 3166-1 country with all the names the package gives
 * in French, German, English and Italian (official name and aliases: "Schweiz", "Suisse",
 * "Svizzera", "Switzerland"), and its local names from the package's own language files. The few
 * edits below are reviewed by hand, each with its reason; a package upgrade that makes one of them
 * pointless stops the generator, so that it is reviewed again. Run it with
 * `pnpm --filter search gazetteer:countries`; gazetteer.spec.ts fails when the committed file
 * differs from what this writes.
 */

/**
 * Names the package writes in a form nobody types (inverted official forms, qualifiers in
 * brackets, letters with dots), each replaced by what a traveller writes; [] drops it when the
 * language already has the usual name. Key: `CODE language name`, exactly as the package has it.
 */
const REPLACED: Record<string, string[]> = {
  'BQ en Bonaire, Sint Eustatius and Saba': ['Bonaire, Sint Eustatius and Saba', 'Bonaire'],
  'BQ fr Bonaire, Saint-Eustache et Saba': ['Bonaire, Saint-Eustache et Saba', 'Bonaire'],
  'CC en Cocos (Keeling) Islands': ['Cocos Islands', 'Cocos (Keeling) Islands'],
  'FK en Falkland Islands (Malvinas)': ['Falkland Islands', 'Falklands'],
  'FM en Micronesia, Federated States of': ['Micronesia', 'Federated States of Micronesia'],
  'KR en Korea, Republic of': [],
  'MD en Moldova, Republic of': ['Moldova'],
  'MF en Saint Martin (French part)': ['Saint Martin'],
  'MF fr Saint-Martin (partie française)': ['Saint-Martin'],
  // Two names run together with a double space.
  'MM it Birmania  Myanmar': ['Birmania', 'Myanmar'],
  'NL en Netherlands (Kingdom of the)': [],
  "SH it Sant'Elena, Isola di Ascensione e Tristan da Cunha": [
    "Sant'Elena",
    "Sant'Elena, Isola di Ascensione e Tristan da Cunha",
  ],
  'SX en Sint Maarten (Dutch part)': ['Sint Maarten'],
  'SX fr Saint-Martin (partie néerlandaise)': ['Sint Maarten'],
  'SY de Syrien, Arabische Republik': ['Syrien'],
  'TW en Taiwan, Province of China': [],
  'TZ de Tansania, Vereinigte Republik': [],
  'US en U.S.': [],
  'US en U.S.A.': [],
  'VA en Holy See (Vatican City State)': ['Vatican City', 'Vatican', 'Holy See'],
  'VA fr Saint-Siège (Vatican)': ['Vatican', 'Cité du Vatican', 'Saint-Siège'],
  'VG en Virgin Islands, British': ['British Virgin Islands'],
  'VI en Virgin Islands, U.S.': ['United States Virgin Islands', 'US Virgin Islands'],
};

/** Usual names the package lacks (short forms and exonyms in everyday use), added after its own. */
const ADDED: Record<string, Partial<Record<Language, string[]>>> = {
  BN: { en: ['Brunei'] },
  BQ: { it: ['Bonaire'] },
  CZ: { fr: ['Tchéquie'], it: ['Cechia'] },
  GB: { fr: ['Grande-Bretagne'], en: ['Britain'], it: ['Gran Bretagna'] },
  LA: { en: ['Laos'] },
  MM: { fr: ['Birmanie'], de: ['Birma'], en: ['Burma'] },
  NL: { fr: ['Hollande'], de: ['Holland'], en: ['Holland'], it: ['Olanda'] },
  PS: { de: ['Palästina'], it: ['Palestina'] },
  SZ: { fr: ['Eswatini'] },
  TL: { fr: ['Timor oriental'], en: ['East Timor'] },
  TZ: { fr: ['Tanzanie'] },
  US: { fr: ['États-Unis', 'USA'], it: ['Stati Uniti', 'USA'] },
  VA: { de: ['Vatikan'], it: ['Vaticano'] },
};

/**
 * Country names that are also a common word of one of the four languages, with those languages
 * (found by spell-checking every name against the four languages' dictionaries, then judged by
 * hand): a later ranking step decides by context. The cell is written as in places.tsv.
 */
const AMBIGUOUS: Record<string, string> = {
  AI: 'Anguilla:it', // an eel
  BJ: 'Bénin:fr', // benign
  BM: 'Bermuda:fr,it', // knee-length shorts
  CL: 'Chili:fr,de,en,it', // the pepper
  CN: 'China:en,it', // porcelain; Italian: a slope, Indian ink
  CW: 'Curaçao:fr,de,en,it', // the liqueur
  EC: 'Équateur:fr', // the equator
  GD: 'Grenade:fr,en', // a pomegranate, a grenade
  GG: 'Guernsey:en', // the jumper
  IS: 'Island:en',
  JE: 'Jersey:fr,de,en,it', // the fabric, the jumper
  MC: 'Monaco:it', // a monk
  ML: 'Mali:it', // ills
  MT: 'Malta:it; Malte:de', // mortar; German: painted
  PA: 'Panama:fr', // the hat
  RE: 'Réunion:fr,en', // a meeting
  SE: 'Suède:fr,en', // suede
  TR: 'Turkey:en', // the bird
  US: 'US:en; USA:it', // the pronoun; Italian: uses
};

/**
 * The languages people speak in the country, among the package's (its language files), for the
 * local names: European countries and the main destinations of European travellers. A country
 * not listed has no local name (the four languages' names cover it).
 */
const LOCAL_LANGUAGES: Record<string, string[]> = {
  AD: ['ca'],
  AE: ['ar'],
  AL: ['sq'],
  AM: ['hy'],
  AR: ['es'],
  AT: ['de'],
  AU: ['en'],
  AX: ['sv'],
  AZ: ['az'],
  BA: ['bs', 'hr', 'sr'],
  BE: ['nl', 'fr', 'de'],
  BG: ['bg'],
  BR: ['pt'],
  BY: ['be', 'ru'],
  CA: ['en', 'fr'],
  CH: ['de', 'fr', 'it'],
  CL: ['es'],
  CN: ['zh'],
  CO: ['es'],
  CR: ['es'],
  CU: ['es'],
  CY: ['el', 'tr'],
  CZ: ['cs'],
  DE: ['de'],
  DK: ['da'],
  DO: ['es'],
  EE: ['et'],
  EG: ['ar'],
  ES: ['es', 'ca', 'eu', 'gl'],
  FI: ['fi', 'sv'],
  FR: ['fr'],
  GB: ['en'],
  GE: ['ka'],
  GF: ['fr'],
  GP: ['fr'],
  GR: ['el'],
  HR: ['hr'],
  HU: ['hu'],
  ID: ['id'],
  IE: ['ga', 'en'],
  IL: ['he'],
  IN: ['hi', 'en'],
  IS: ['is'],
  IT: ['it'],
  JO: ['ar'],
  JP: ['ja'],
  KE: ['sw', 'en'],
  KH: ['km'],
  KR: ['ko'],
  LI: ['de'],
  LK: ['ta'],
  LT: ['lt'],
  LU: ['fr', 'de'],
  LV: ['lv'],
  MA: ['ar', 'fr'],
  MC: ['fr'],
  MD: ['ro'],
  ME: ['sr', 'bs'],
  MK: ['mk'],
  MN: ['mn'],
  MQ: ['fr'],
  MT: ['mt', 'en'],
  MU: ['en', 'fr'],
  MV: ['dv'],
  MX: ['es'],
  MY: ['ms'],
  NC: ['fr'],
  NL: ['nl'],
  NO: ['nb', 'nn'],
  NZ: ['en'],
  PE: ['es'],
  PF: ['fr'],
  PL: ['pl'],
  PT: ['pt'],
  RE: ['fr'],
  RO: ['ro'],
  RS: ['sr'],
  RU: ['ru'],
  SC: ['en', 'fr'],
  SE: ['sv'],
  SI: ['sl'],
  SK: ['sk'],
  SM: ['it'],
  TH: ['th'],
  TN: ['ar', 'fr'],
  TR: ['tr'],
  TZ: ['sw', 'en'],
  UA: ['uk'],
  US: ['en'],
  UY: ['es'],
  VA: ['it'],
  VN: ['vi'],
  XK: ['sq', 'sr'],
  ZA: ['af', 'en'],
};

const COMMENT = [
  "# The gazetteer's countries: every ISO 3166-1 country, its names in French, German, English and",
  '# Italian, its local names and the names that are also a common word. GENERATED by',
  '# generate-countries.ts from the i18n-iso-countries package (with the few reviewed edits listed',
  '# there): do not edit by hand, run `pnpm --filter search gazetteer:countries`. See GAZETTEER.md.',
];

/** A package name with the reviewed edits applied. */
function edited(code: string, language: string, names: string[], used: Set<string>): string[] {
  return names.flatMap((name) => {
    const key = `${code} ${language} ${name}`;
    const replacement = REPLACED[key];
    if (replacement === undefined) return [name];
    used.add(key);
    return replacement;
  });
}

/** Names in order, the first spelling of each folded name kept. */
function distinct(names: string[]): string[] {
  const seen = new Set<string>();
  return names.filter((name) => {
    const folded = foldName(name);
    if (folded === '' || seen.has(folded)) return false;
    seen.add(folded);
    return true;
  });
}

/** countries.tsv as this generator writes it (one line a country, sorted by code). */
export function renderCountries(): string {
  const used = new Set<string>();
  const codes = Object.keys(isoCountries.getAlpha2Codes()).sort();
  const lines = codes.map((code) => {
    const names = LANGUAGES.map((language) => {
      const own = edited(code, language, isoCountries.getName(code, language, { select: 'all' }) ?? [], used);
      for (const name of ADDED[code]?.[language] ?? []) {
        if (own.some((other) => foldName(other) === foldName(name))) {
          throw new Error(`${code} ${language}: the package now gives "${name}"; remove it from ADDED`);
        }
      }
      const all = distinct([...own, ...(ADDED[code]?.[language] ?? [])]);
      if (!all.length) throw new Error(`${code}: the package gives no ${language} name`);
      return all.join('; ');
    });
    const local = distinct(
      (LOCAL_LANGUAGES[code] ?? []).flatMap((language) => {
        const found = isoCountries.getName(code, language, { select: 'all' });
        if (!found?.length) throw new Error(`${code}: the package has no ${language} name (LOCAL_LANGUAGES)`);
        return edited(code, language, found, used);
      }),
    ).join('; ');
    return [code.toLowerCase(), 'country', code, '', ...names, local, AMBIGUOUS[code] ?? ''].join('\t');
  });
  const stale = [
    ...Object.keys(REPLACED).filter((key) => !used.has(key)),
    ...[...Object.keys(ADDED), ...Object.keys(AMBIGUOUS), ...Object.keys(LOCAL_LANGUAGES)].filter(
      (code) => !codes.includes(code),
    ),
  ];
  if (stale.length) throw new Error(`edits the package no longer needs or knows: ${stale.join(' | ')}`);
  return [...COMMENT, PLACE_HEADER.join('\t'), ...lines, ''].join('\n');
}

if (require.main === module) {
  writeFileSync(COUNTRIES_PATH, renderCountries());
  console.log(`wrote ${COUNTRIES_PATH}`);
}
