import { readFileSync } from 'node:fs';
import { sourceFilePath } from '../../common/source-files';
import { foldWords } from '../analysis/tokenizer';
import { LANGUAGES, type Language } from '../analysis/languages';
import { DataFileError, listCell, tsvRows, type TsvRow } from '../../common/tsv';

/**
 * The gazetteer (reviewed data: GAZETTEER.md): the places a traveller searches by name — countries
 * (countries.tsv, written by generate-countries.ts from the i18n-iso-countries package) and, by
 * hand, cantons, regions, islands, lakes, rivers, ranges, passes and cities (places.tsv) — each
 * with its names in French, German, English and Italian, its local names, its country and its
 * parent place. Names are folded as the glossary folds words (foldWords), so `Genève`, `geneve`
 * and `GENEVE` find the same place. The ranking finds places in searches through PlaceFinder
 * (place-finder.ts; apps/search/README.md, "Places").
 */

/** What a place is; the order is the one of GAZETTEER.md's counts. */
export const PLACE_KINDS = [
  'country',
  'canton',
  'region',
  'island',
  'archipelago',
  'peninsula',
  'coast',
  'valley',
  'lake',
  'river',
  'sea',
  'fjord',
  'range',
  'mountain',
  'glacier',
  'waterfall',
  'pass',
  'city',
] as const;
export type PlaceKind = (typeof PLACE_KINDS)[number];

/** A point on the map: WGS 84 latitude and longitude in degrees. */
export interface GeoPoint {
  lat: number;
  lon: number;
}

export interface Place {
  /** Unique over both files; a country's is its ISO 3166-1 alpha-2 code in lower case. */
  id: string;
  kind: PlaceKind;
  /** ISO 3166-1 alpha-2 codes (upper case), sorted: several for a lake, river or range on a border. */
  countries: string[];
  /** The id of the hand-written place it lies in (Zermatt ⊂ Mattertal ⊂ Upper Valais ⊂ Valais). */
  parent?: string;
  /** Per language, the names as written (accents, capitals), the usual one first. */
  names: Record<Language, string[]>;
  /** The names used on the spot, in the local language(s), any script; may repeat a name above. */
  local: string[];
  /**
   * Folded names that are also a common word of one of the four languages (Bergen: German "in den
   * Bergen"; Nice: English "nice"), with those languages: a later ranking step decides by context.
   */
  ambiguous: Record<string, Language[]>;
  /** Where the place is on the map, when a dataset gives it (none yet: issue 62 brings them). */
  point?: GeoPoint;
  /** Where the place is written: file name and 1-based line, as an editor shows it. */
  source: string;
  line: number;
}

/** One place a name leads to. */
export interface GazetteerMatch {
  place: Place;
  /** The folded name looked up. */
  name: string;
  /** The name lists of the place the name is in (a name can be, say, French and German). */
  languages: (Language | 'local')[];
  /** The languages in which the name is also a common word (empty: a name only). */
  commonWordIn: Language[];
}

/** A name that two or more places carry on purpose (shared-names.tsv). */
export interface SharedName {
  name: string;
  folded: string;
  places: string[];
  reason: string;
  source: string;
  line: number;
}

/** The committed data (same paths from dist, as the glossary's). */
export const COUNTRIES_PATH = sourceFilePath('query', 'gazetteer', 'countries.tsv');
export const PLACES_PATH = sourceFilePath('query', 'gazetteer', 'places.tsv');
export const SHARED_NAMES_PATH = sourceFilePath('query', 'gazetteer', 'shared-names.tsv');

/** A gazetteer line that cannot be read, or a gazetteer that does not hold together. */
export class GazetteerError extends DataFileError {}

/** A name as a search is folded and split (the glossary's foldWords), words joined by one space. */
export function foldName(text: string): string {
  return foldWords(text).join(' ');
}

export const PLACE_HEADER = ['id', 'kind', 'countries', 'parent', ...LANGUAGES, 'local', 'ambiguous'];
const SHARED_HEADER = ['name', 'places', 'reason'];
const PLACE_ID = /^[a-z][a-z0-9_]*$/;
const COUNTRY_CODE = /^[A-Z]{2}$/;
const AMBIGUITY = /^([^:]+):([a-z]{2}(?:,[a-z]{2})*)$/;

/**
 * The data lines of a gazetteer file, all read (and the file's shape checked) before any row is:
 * a wrong header or column count is refused before a bad cell on an earlier line.
 */
function rows(text: string, source: string, header: string[]): TsvRow[] {
  return [...tsvRows(text, header, (line, reason) => new GazetteerError(source, line, reason))];
}

/**
 * Reads one gazetteer file (countries.tsv or places.tsv): `#` lines are comments, then the header
 * `id kind countries parent fr de en it local ambiguous` (tab-separated), then one place a line,
 * several names separated by `;`. Refuses (naming the line) a wrong header or column count, a
 * malformed or repeated id, an unknown kind, a malformed country code, a language without any
 * name, and an ambiguity that is not `name:lang[,lang]` on one of the place's own names.
 */
export function parsePlaces(text: string, source: string): Place[] {
  const places: Place[] = [];
  const ids = new Map<string, number>();
  for (const { line, columns } of rows(text, source, PLACE_HEADER)) {
    const [id, kind, countriesCell, parent, fr, de, en, it, localCell, ambiguousCell] = columns;
    const fail = (reason: string) => new GazetteerError(source, line, reason);
    if (!PLACE_ID.test(id)) throw fail(`malformed place id "${id}"`);
    const first = ids.get(id);
    if (first !== undefined) throw fail(`place "${id}" is already defined on line ${first}`);
    ids.set(id, line);
    if (!(PLACE_KINDS as readonly string[]).includes(kind)) {
      throw fail(`unknown kind "${kind}" (${PLACE_KINDS.join(', ')})`);
    }
    const countries = listCell(countriesCell);
    if (!countries.length) throw fail(`place "${id}" has no country`);
    for (const code of countries) {
      if (!COUNTRY_CODE.test(code)) throw fail(`malformed country code "${code}" (ISO 3166-1 alpha-2)`);
    }
    if (new Set(countries).size !== countries.length) throw fail(`place "${id}" repeats a country`);
    if (parent !== '' && !PLACE_ID.test(parent)) throw fail(`malformed parent id "${parent}"`);
    if (parent === id) throw fail(`place "${id}" is its own parent`);
    const names = {} as Record<Language, string[]>;
    [fr, de, en, it].forEach((cell, i) => {
      const language = LANGUAGES[i];
      names[language] = [...new Set(listCell(cell).filter((name) => foldName(name) !== ''))];
      if (!names[language].length) throw fail(`place "${id}" has no ${language} name`);
    });
    const local = [...new Set(listCell(localCell).filter((name) => foldName(name) !== ''))];
    const own = new Set([...LANGUAGES.flatMap((language) => names[language]), ...local].map(foldName));
    const ambiguous: Record<string, Language[]> = {};
    for (const entry of listCell(ambiguousCell)) {
      const match = AMBIGUITY.exec(entry);
      if (!match) throw fail(`malformed ambiguity "${entry}" (name:lang[,lang])`);
      const name = foldName(match[1]);
      if (!own.has(name)) throw fail(`ambiguity "${entry}": "${match[1]}" is not a name of "${id}"`);
      if (ambiguous[name]) throw fail(`ambiguity "${entry}": "${match[1]}" is already marked`);
      const languages = match[2].split(',');
      for (const language of languages) {
        if (!(LANGUAGES as readonly string[]).includes(language)) {
          throw fail(`ambiguity "${entry}": unknown language "${language}" (${LANGUAGES.join(', ')})`);
        }
      }
      if (new Set(languages).size !== languages.length) throw fail(`ambiguity "${entry}" repeats a language`);
      ambiguous[name] = languages as Language[];
    }
    places.push({
      id,
      kind: kind as PlaceKind,
      countries,
      ...(parent === '' ? {} : { parent }),
      names,
      local,
      ambiguous,
      source,
      line,
    });
  }
  return places;
}

/**
 * Reads shared-names.tsv: `name places reason`, the places' ids separated by `;`. Refuses (naming
 * the line) a wrong header or column count, a name declared twice, fewer than two places, and a
 * missing reason.
 */
export function parseSharedNames(text: string, source = 'shared-names.tsv'): SharedName[] {
  const shared: SharedName[] = [];
  const seen = new Map<string, number>();
  for (const { line, columns } of rows(text, source, SHARED_HEADER)) {
    const [name, placesCell, reason] = columns;
    const folded = foldName(name);
    if (folded === '') throw new GazetteerError(source, line, 'no name');
    const first = seen.get(folded);
    if (first !== undefined) {
      throw new GazetteerError(source, line, `"${name}" is already declared on line ${first}`);
    }
    seen.set(folded, line);
    const places = listCell(placesCell);
    if (new Set(places).size < 2)
      throw new GazetteerError(source, line, `"${name}" needs two places or more`);
    if (reason === '') throw new GazetteerError(source, line, `"${name}" has no reason`);
    shared.push({ name, folded, places: [...places].sort(), reason, source, line });
  }
  return shared;
}

/** The places and their names, for look-ups; built from checked places (loadGazetteer). */
export class Gazetteer {
  private readonly byId = new Map<string, Place>();
  private readonly byName = new Map<string, GazetteerMatch[]>();
  /** The most words a name has (`lago dei quattro cantoni` has 4): how far a phrase look-up reaches. */
  readonly maxNameWords: number;

  constructor(readonly places: readonly Place[]) {
    let maxNameWords = 0;
    for (const place of places) {
      this.byId.set(place.id, place);
      const lists: [Language | 'local', string[]][] = [
        ...LANGUAGES.map((language) => [language, place.names[language]] as [Language, string[]]),
        ['local', place.local],
      ];
      const matches = new Map<string, GazetteerMatch>();
      for (const [language, names] of lists) {
        for (const written of names) {
          const name = foldName(written);
          maxNameWords = Math.max(maxNameWords, name.split(' ').length);
          const match = matches.get(name);
          if (match) {
            if (!match.languages.includes(language)) match.languages.push(language);
            continue;
          }
          matches.set(name, {
            place,
            name,
            languages: [language],
            commonWordIn: place.ambiguous[name] ?? [],
          });
        }
      }
      for (const [name, match] of matches) {
        const existing = this.byName.get(name);
        if (existing) existing.push(match);
        else this.byName.set(name, [match]);
      }
    }
    this.maxNameWords = maxNameWords;
  }

  /** The places a name as written (one word or several) leads to; none: []. */
  lookup(name: string): GazetteerMatch[] {
    return this.lookupFolded(foldName(name));
  }

  /**
   * The places a folded name (folded words joined by a space: a search's words as the analysis
   * read them) leads to; none: []. Folding is not idempotent (`aee` → `ae` → `a`), so a search's
   * words, folded once, are looked up as they are.
   */
  lookupFolded(name: string): GazetteerMatch[] {
    return this.byName.get(name) ?? [];
  }

  /** A place by id. */
  place(id: string): Place | undefined {
    return this.byId.get(id);
  }

  /** Every folded name with the places it leads to. */
  names(): ReadonlyMap<string, readonly GazetteerMatch[]> {
    return this.byName;
  }

  /** The chain of parents of a place, nearest first (Zermatt: Mattertal, Upper Valais, Valais). */
  ancestors(id: string): Place[] {
    const chain: Place[] = [];
    // buildGazetteer refuses a parent loop; the bound keeps a hand-built one from hanging.
    for (let place = this.byId.get(id); place?.parent !== undefined && chain.length < this.places.length;) {
      place = this.byId.get(place.parent);
      if (!place) break;
      chain.push(place);
    }
    return chain;
  }
}

/**
 * Builds the gazetteer from the countries and the hand-written places, refusing (GazetteerError
 * naming the line) what would make look-ups wrong: an id used twice across the files, a country in
 * places.tsv or a place that is not a country in countries.tsv, a country code that is not one of
 * countries.tsv, a parent that is unknown, a country or a loop, and a place outside its parent's
 * countries.
 */
export function buildGazetteer(countries: Place[], places: Place[]): Gazetteer {
  for (const country of countries) {
    if (
      country.kind !== 'country' ||
      country.countries.length !== 1 ||
      country.id !== country.countries[0].toLowerCase()
    ) {
      throw new GazetteerError(
        country.source,
        country.line,
        `"${country.id}" is not a country with its own code as id`,
      );
    }
  }
  const codes = new Set(countries.map((country) => country.countries[0]));
  const byId = new Map<string, Place>(countries.map((country) => [country.id, country]));
  for (const place of places) {
    const fail = (reason: string) => new GazetteerError(place.source, place.line, reason);
    if (place.kind === 'country') throw fail(`countries come from ${COUNTRIES_PATH}, not by hand`);
    const other = byId.get(place.id);
    if (other) throw fail(`id "${place.id}" is already used by ${other.source}, line ${other.line}`);
    byId.set(place.id, place);
    for (const code of place.countries) if (!codes.has(code)) throw fail(`unknown country "${code}"`);
  }
  for (const place of places) {
    if (place.parent === undefined) continue;
    const fail = (reason: string) => new GazetteerError(place.source, place.line, reason);
    const parent = byId.get(place.parent);
    if (!parent) throw fail(`unknown parent "${place.parent}"`);
    if (parent.kind === 'country')
      throw fail(`parent "${place.parent}" is a country: the countries column says it`);
    const outside = place.countries.filter((code) => !parent.countries.includes(code));
    if (outside.length)
      throw fail(`"${place.id}" lies in ${outside.join(', ')}, outside its parent "${parent.id}"`);
    const seen = new Set([place.id]);
    for (let up: Place | undefined = parent; up?.parent !== undefined; up = byId.get(up.parent)) {
      if (seen.has(up.id)) throw fail(`"${place.id}" is inside itself (parents loop through "${up.id}")`);
      seen.add(up.id);
    }
  }
  return new Gazetteer([...countries, ...places]);
}

/** The committed gazetteer, read and checked. */
export function loadGazetteer(countriesPath = COUNTRIES_PATH, placesPath = PLACES_PATH): Gazetteer {
  return buildGazetteer(
    parsePlaces(readFileSync(countriesPath, 'utf8'), countriesPath),
    parsePlaces(readFileSync(placesPath, 'utf8'), placesPath),
  );
}

/** The committed declarations of names carried by several places. */
export function loadSharedNames(path = SHARED_NAMES_PATH): SharedName[] {
  return parseSharedNames(readFileSync(path, 'utf8'), path);
}

/**
 * What a review must settle before the data is committed (each an English sentence; none: []).
 * - A name carried by several places must be declared in shared-names.tsv with exactly those
 *   places, unless they all lie in one another (a canton and its capital: Zug ⊂ Zug); a
 *   declaration that no longer matches is reported too.
 * - A name marked as a common word is marked alike (same languages) on every place carrying it.
 * - Each hand-written place has a local name.
 * - Each file is sorted: countries by code; places by first country, kind, then id.
 */
export function reviewGazetteer(gazetteer: Gazetteer, shared: SharedName[]): string[] {
  const findings: string[] = [];
  const declared = new Map(shared.map((entry) => [entry.folded, entry]));
  const where = (entry: SharedName) => `${entry.source}, line ${entry.line}`;
  const nested = (ids: string[]) =>
    ids.every((a) =>
      ids.every(
        (b) =>
          a === b ||
          gazetteer.ancestors(a).some((p) => p.id === b) ||
          gazetteer.ancestors(b).some((p) => p.id === a),
      ),
    );
  for (const [name, matches] of gazetteer.names()) {
    const ids = matches.map((match) => match.place.id).sort();
    const marks = new Set(matches.map((match) => [...match.commonWordIn].sort().join(',')));
    if (marks.size > 1) {
      findings.push(
        `"${name}" is a common word in ${[...marks].map((m) => m || 'no language').join(' or ')}, by place`,
      );
    }
    const declaration = declared.get(name);
    declared.delete(name);
    if (ids.length < 2) {
      if (declaration) findings.push(`${where(declaration)}: "${name}" is carried by ${ids.join(', ')} only`);
      continue;
    }
    if (!declaration) {
      if (!nested(ids))
        findings.push(`"${name}" is carried by ${ids.join(', ')}: declare it in shared-names.tsv`);
    } else if (declaration.places.join(' ') !== ids.join(' ')) {
      findings.push(
        `${where(declaration)}: "${name}" is carried by ${ids.join(', ')}, declared for ${declaration.places.join(', ')}`,
      );
    }
  }
  for (const declaration of declared.values()) {
    findings.push(`${where(declaration)}: no place is called "${declaration.name}"`);
  }
  const bySource = new Map<string, Place[]>();
  for (const place of gazetteer.places)
    bySource.set(place.source, [...(bySource.get(place.source) ?? []), place]);
  for (const [source, places] of bySource) {
    const key = (place: Place) =>
      place.kind === 'country' ? place.id : [place.countries[0], place.kind, place.id].join('\t');
    places.forEach((place, i) => {
      if (place.kind !== 'country' && !place.local.length) {
        findings.push(`${source}, line ${place.line}: "${place.id}" has no local name`);
      }
      if (i > 0 && key(places[i - 1]) >= key(place)) {
        findings.push(
          `${source}, line ${place.line}: "${place.id}" is out of order (after "${places[i - 1].id}")`,
        );
      }
    });
  }
  return findings;
}
