import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { Injectable } from '@nestjs/common';
import { sourceFilePath } from '../../common/source-files';
import { parseLanguageWordLists } from '../../common/language-word-lists';
import { LANGUAGES } from '../../query/analysis/languages';
import type { Language } from '../../query/analysis/languages';
import { foldWords } from '../../query/analysis/tokenizer';
import { COUNTRIES_PATH, GazetteerError, loadGazetteer, PLACES_PATH } from '../../query/gazetteer/gazetteer';
import type { Gazetteer, GazetteerMatch, GeoPoint, Place } from '../../query/gazetteer/gazetteer';
import {
  loadPlacePrepositions,
  PLACE_PREPOSITIONS_PATH,
  PlaceFinder,
} from '../../query/gazetteer/place-finder';
import type { PlaceMention } from '../../query/gazetteer/place-finder';

/** What the reindex reads of an offer to place it (travel_offers). */
export interface PlaceableOffer {
  name: string;
  description: string | null;
  /** ISO 3166-1 alpha-2, any case; null: none. */
  destinationCode: string | null;
  destinationName: string | null;
  /** The record's language (`fr`, `de`, `en`, `it`); anything else: unknown. */
  language: string | null;
}

/** Where an offer is (docs/decisions.md D-88): what `search_offer_places` stores per offer. */
export interface OfferPlacement {
  /** Gazetteer ids, sorted: the places the offer is in and every place containing them. */
  places: string[];
  /** The points of the places its text names, in the order named, distinct. */
  points: GeoPoint[];
}

/** The committed departure words (same path from dist; `files` of package.json ships it). */
export const DEPARTURE_WORDS_PATH = sourceFilePath('query', 'gazetteer', 'departure-words.tsv');

/**
 * Bumped when the placing rules below change, so that a reindex recomputes every offer's places as
 * it does when the data changes (OfferPlacer.version).
 */
export const PLACING_RULES_VERSION = 1;

/** The most places an offer's text names that count (in the order named): a tour names many. */
export const MAX_NAMED_PLACES = 32;

/** Little words that may stand between a departure word and the place ("départ de", "partenza da"). */
const MAX_LITTLE_WORD = 4;
const MAX_LITTLE_WORDS = 2;

/**
 * The words that join the places of a list ("Genève, Bâle ou Zurich"; commas are gone once folded):
 * a place after a departure place with only these between departs too.
 */
const LIST_WORDS = new Set(['ou', 'et', 'oder', 'und', 'or', 'and', 'o', 'e', 'oppure']);

/** Splits a text where a list of departure places cannot go on: the end of a sentence or clause. */
const CLAUSE_END = /[.!?;:\n\r()]+/;

/**
 * The departure words (departure-words.tsv, reviewed data: GAZETTEER.md), folded, all languages
 * together: read and validated when the reindex first places offers.
 */
export function loadDepartureWords(path = DEPARTURE_WORDS_PATH): Set<string> {
  const lists = parseLanguageWordLists(readFileSync(path, 'utf8'), {
    languages: LANGUAGES,
    foldWords,
    error: (line, reason) => new GazetteerError(path, line, reason),
  });
  return new Set(LANGUAGES.flatMap((language) => lists[language]));
}

/**
 * Places an offer (docs/decisions.md D-88): its destination country, and the gazetteer's places its
 * name, destination name and description name, unless named as where the trip departs or returns
 * (a departure word before them: departure-words.tsv; D-76), each with every place containing it
 * (Gazetteer.ancestors) and its own countries (not the ancestors': the Alps' are eight). A name several places carry counts for those in the
 * destination country; when none is there it counts only if it names one place. A name that is a
 * common word of the offer's language (of any language when the language is unknown) is that word
 * unless a preposition of place comes right before it (PlaceFinder.mentions). Points: the named
 * places' own (not a country's: its middle is not where the offer is); an offer whose text names
 * no place with a point has none.
 */
export class OfferPlacer {
  private readonly finder: PlaceFinder;

  constructor(
    private readonly gazetteer: Gazetteer,
    private readonly prepositions: ReadonlySet<string>,
    private readonly departureWords: ReadonlySet<string>,
    /** Changes whenever the data or the rules change (`search_stats.places_version`). */
    readonly version: string,
  ) {
    this.finder = new PlaceFinder(gazetteer, prepositions);
  }

  place(offer: PlaceableOffer): OfferPlacement {
    const language = (LANGUAGES as readonly string[]).includes(offer.language ?? '')
      ? (offer.language as Language)
      : undefined;
    const country = offer.destinationCode
      ? this.gazetteer.place(offer.destinationCode.toLowerCase())
      : undefined;
    const destination = country?.kind === 'country' ? country : undefined;
    const named: Place[] = [];
    const seen = new Set<string>();
    for (const text of [offer.name, offer.destinationName ?? '', offer.description ?? '']) {
      for (const clause of text.split(CLAUSE_END)) {
        for (const place of this.namedIn(foldWords(clause), language, destination)) {
          if (named.length >= MAX_NAMED_PLACES) break;
          if (!seen.has(place.id)) {
            seen.add(place.id);
            named.push(place);
          }
        }
      }
    }
    const places = new Set<string>();
    const addCountries = (place: Place) => {
      for (const code of place.countries) {
        const id = code.toLowerCase();
        if (this.gazetteer.place(id)?.kind === 'country') places.add(id);
      }
    };
    if (destination) places.add(destination.id);
    const points: GeoPoint[] = [];
    const pointKeys = new Set<string>();
    for (const place of named) {
      places.add(place.id);
      addCountries(place);
      // not the ancestors' countries: a range's are all its members' (the Alps': eight)
      for (const ancestor of this.gazetteer.ancestors(place.id)) places.add(ancestor.id);
      if (place.point && place.kind !== 'country') {
        const key = `${place.point.lat},${place.point.lon}`;
        if (!pointKeys.has(key)) {
          pointKeys.add(key);
          points.push({ lat: place.point.lat, lon: place.point.lon });
        }
      }
    }
    return { places: [...places].sort(byteOrder), points };
  }

  /** The places one clause's folded words put the offer in, in the order named. */
  private namedIn(words: string[], language: Language | undefined, destination: Place | undefined): Place[] {
    const found: Place[] = [];
    let previous: { mention: PlaceMention; departs: boolean } | undefined;
    for (const mention of this.finder.mentions(words, language)) {
      const departs =
        this.followsDepartureWord(words, mention.start) ||
        (previous !== undefined &&
          previous.departs &&
          words
            .slice(previous.mention.start + previous.mention.length, mention.start)
            .every((word) => LIST_WORDS.has(word)));
      previous = { mention, departs };
      if (departs) continue;
      const placed = mention.start > 0 && this.prepositions.has(words[mention.start - 1]);
      const matches = mention.matches.filter(
        (match) => language !== undefined || placed || match.commonWordIn.length === 0,
      );
      found.push(...this.resolve(matches, destination));
    }
    return found;
  }

  /** Whether a departure word comes before `start`, with at most two little words between. */
  private followsDepartureWord(words: string[], start: number): boolean {
    for (let at = start - 1; at >= 0 && at >= start - 1 - MAX_LITTLE_WORDS; at--) {
      if (this.departureWords.has(words[at])) return true;
      if (words[at].length > MAX_LITTLE_WORD) return false;
    }
    return false;
  }

  /** The places a name counts for: those in the destination country, else the one place it names. */
  private resolve(matches: GazetteerMatch[], destination: Place | undefined): Place[] {
    const places = [...new Map(matches.map((match) => [match.place.id, match.place])).values()];
    if (destination) {
      const inside = places.filter((place) => place.countries.includes(destination.countries[0]));
      if (inside.length) return inside;
    }
    return places.length === 1 ? places : [];
  }
}

/** Sorts as PostgreSQL's `COLLATE "C"` and the loader do: by UTF-16 code unit (ids are ASCII). */
function byteOrder(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** The version of committed data and rules: a hash of the files read and PLACING_RULES_VERSION. */
export function placingVersion(paths: readonly string[], rules = PLACING_RULES_VERSION): string {
  const hash = createHash('sha256').update(`rules ${rules}\n`);
  for (const path of paths) hash.update(readFileSync(path)).update('\0');
  return hash.digest('hex').slice(0, 32);
}

/** The committed gazetteer, prepositions and departure words, with their version. */
export function loadOfferPlacer(): OfferPlacer {
  const paths = [COUNTRIES_PATH, PLACES_PATH, PLACE_PREPOSITIONS_PATH, DEPARTURE_WORDS_PATH];
  return new OfferPlacer(
    loadGazetteer(),
    loadPlacePrepositions(),
    loadDepartureWords(),
    placingVersion(paths),
  );
}

/**
 * The reindex's placer, loaded at the first reindex that places offers (a replica that never
 * reindexes holds none of its data); tests replace it with a placer of their own gazetteer.
 */
@Injectable()
export class OfferPlacing {
  private loaded?: OfferPlacer;

  placer(): OfferPlacer {
    return (this.loaded ??= loadOfferPlacer());
  }
}
