import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { Injectable } from '@nestjs/common';
import { sourceFilePath } from '../../common/source-files';
import { parseLanguageWordLists } from '../../common/language-word-lists';
import { LANGUAGES } from '../../query/analysis/languages';
import type { Language } from '../../query/analysis/languages';
import { foldWords } from '../../query/analysis/tokenizer';
import {
  COUNTRIES_PATH,
  GazetteerError,
  loadGazetteer,
  PLACE_POINTS_PATH,
  PLACES_PATH,
} from '../../query/gazetteer/gazetteer';
import type { Gazetteer, GazetteerMatch, GeoPoint, Place } from '../../query/gazetteer/gazetteer';
import {
  loadPlacePrepositions,
  PLACE_PREPOSITIONS_PATH,
  PlaceFinder,
} from '../../query/gazetteer/place-finder';
import { loadTowns, REGIONS_PATH, TOWNS_PATH } from '../../query/gazetteer/towns';
import type { Town, Towns } from '../../query/gazetteer/towns';
import { townPlaceId } from '../text-index/offer-places';

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
 * Places an offer (docs/decisions.md D-88): its destination country, and the gazetteer's places and
 * the GeoNames towns (in its destination country) its name, destination name and description name, unless named as where the trip departs or returns
 * (a departure word before them: departure-words.tsv; D-76), each with every place containing it
 * (Gazetteer.ancestors) and its own countries (not the ancestors': the Alps' are eight). A name several places carry counts for those in the
 * destination country; when none is there it counts only if it names one place. A name that is a
 * common word of the offer's language (of any language when the language is unknown) is that word
 * unless a preposition of place comes right before it (PlaceFinder.mentions). Points: the named
 * places' and towns' own (not a country's: its middle is not where the offer is); an offer whose
 * text names no place with a point has none. A town's places: itself (`town_<geonames id>`), its
 * region (regions.tsv) and the hand-written place that region is with the places containing it.
 */
export class OfferPlacer {
  private readonly finder: PlaceFinder;
  /** The most words a town's name has (`saint martin de belleville`). */
  private readonly maxTownWords: number;
  /** The first words of the towns' names: a word no name starts with is passed at once. */
  private readonly townFirstWords = new Set<string>();

  constructor(
    private readonly gazetteer: Gazetteer,
    private readonly prepositions: ReadonlySet<string>,
    private readonly departureWords: ReadonlySet<string>,
    /** Changes whenever the data or the rules change (`search_stats.places_version`). */
    readonly version: string,
    /** The GeoNames towns (towns.ts); none: the gazetteer's places only. */
    private readonly towns?: Towns,
  ) {
    this.finder = new PlaceFinder(gazetteer, prepositions);
    let maxTownWords = 0;
    for (const name of towns?.townNames() ?? [])
      maxTownWords = Math.max(maxTownWords, name.split(' ').length);
    this.maxTownWords = maxTownWords;
  }

  place(offer: PlaceableOffer): OfferPlacement {
    const language = (LANGUAGES as readonly string[]).includes(offer.language ?? '')
      ? (offer.language as Language)
      : undefined;
    const country = offer.destinationCode
      ? this.gazetteer.place(offer.destinationCode.toLowerCase())
      : undefined;
    const destination = country?.kind === 'country' ? country : undefined;
    const named: Named[] = [];
    const seen = new Set<string>();
    for (const text of [offer.name, offer.destinationName ?? '', offer.description ?? '']) {
      for (const clause of text.split(CLAUSE_END)) {
        for (const one of this.namedIn(foldWords(clause), language, destination)) {
          const id = 'geonameId' in one ? townPlaceId(one) : one.id;
          if (named.length >= MAX_NAMED_PLACES) break;
          if (!seen.has(id)) {
            seen.add(id);
            named.push(one);
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
    const addPoint = (point: GeoPoint) => {
      const key = `${point.lat},${point.lon}`;
      if (!pointKeys.has(key)) {
        pointKeys.add(key);
        points.push({ lat: point.lat, lon: point.lon });
      }
    };
    const addWithin = (place: Place) => {
      places.add(place.id);
      addCountries(place);
      // not the ancestors' countries: a range's are all its members' (the Alps': eight)
      for (const ancestor of this.gazetteer.ancestors(place.id)) places.add(ancestor.id);
    };
    for (const one of named) {
      if ('geonameId' in one) {
        // a town: its region (regions.tsv) and the hand-written place that region is, its country
        places.add(townPlaceId(one));
        const region = this.towns?.regionOf(one);
        if (region) places.add(region.id);
        const regionPlace = region?.place !== undefined ? this.gazetteer.place(region.place) : undefined;
        if (regionPlace) addWithin(regionPlace);
        const country = this.gazetteer.place(one.country.toLowerCase());
        if (country?.kind === 'country') places.add(country.id);
        addPoint(one.point);
        continue;
      }
      addWithin(one);
      if (one.point && one.kind !== 'country') addPoint(one.point);
    }
    return { places: [...places].sort(byteOrder), points };
  }

  /**
   * The places and towns one clause's folded words put the offer in, in the order named: the
   * gazetteer's names first (PlaceFinder.mentions), then the towns' in the words left (towns.ts:
   * the longest name first; a name that is an ordinary word of the offer's language, of any
   * language when unknown, only right after a preposition of place).
   */
  private namedIn(words: string[], language: Language | undefined, destination: Place | undefined): Named[] {
    const mentions: Mention[] = this.finder.mentions(words, language).map((mention) => {
      const placed = mention.start > 0 && this.prepositions.has(words[mention.start - 1]);
      const matches = mention.matches.filter(
        (match) => language !== undefined || placed || match.commonWordIn.length === 0,
      );
      return { start: mention.start, length: mention.length, named: this.resolve(matches, destination) };
    });
    if (this.towns) mentions.push(...this.townMentions(words, mentions, language, destination));
    mentions.sort((a, b) => a.start - b.start);
    const found: Named[] = [];
    let previous: { mention: Mention; departs: boolean } | undefined;
    for (const mention of mentions) {
      const departs =
        this.followsDepartureWord(words, mention.start) ||
        (previous !== undefined &&
          previous.departs &&
          words
            .slice(previous.mention.start + previous.mention.length, mention.start)
            .every((word) => LIST_WORDS.has(word)));
      previous = { mention, departs };
      if (!departs) found.push(...mention.named);
    }
    return found;
  }

  /** The towns named in the words no gazetteer mention covers. */
  private townMentions(
    words: string[],
    taken: readonly Mention[],
    language: Language | undefined,
    destination: Place | undefined,
  ): Mention[] {
    const towns = this.towns!;
    const covered = new Uint8Array(words.length);
    for (const mention of taken) covered.fill(1, mention.start, mention.start + mention.length);
    const found: Mention[] = [];
    for (let start = 0; start < words.length;) {
      let mention: Mention | undefined;
      for (
        let length = Math.min(this.maxTownWords, words.length - start);
        length >= 1 && !mention;
        length--
      ) {
        if (covered.subarray(start, start + length).some((c) => c === 1)) continue;
        if (length === 1 && words[start].length < MIN_TOWN_NAME) continue;
        const placed = start > 0 && this.prepositions.has(words[start - 1]);
        const candidates = towns
          .lookupFolded(words.slice(start, start + length).join(' '))
          .filter((town) =>
            placed ? true : language ? !town.ambiguous.includes(language) : town.ambiguous.length === 0,
          );
        if (!candidates.length) continue;
        const town = this.townOf(candidates, destination);
        mention = { start, length, named: town ? [town] : [] };
      }
      if (mention) {
        found.push(mention);
        start += mention.length;
      } else {
        start++;
      }
    }
    return found;
  }

  /**
   * The town a name counts for: the most populous of that name in the destination country (none
   * abroad: 88,000 towns' names meet the words of other languages, "Les" in an English text), or
   * with no destination the only town of that name.
   */
  private townOf(candidates: Town[], destination: Place | undefined): Town | undefined {
    if (destination) return candidates.find((town) => town.country === destination.countries[0]);
    return candidates.length === 1 ? candidates[0] : undefined;
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

/** A gazetteer place or a GeoNames town an offer's text names. */
type Named = Place | Town;

/** Names found in a clause: where, and what they count for (none: a name left undecided). */
interface Mention {
  start: number;
  length: number;
  named: Named[];
}

/** The shortest one-word town name looked up (PlaceFinder's MIN_ONE_WORD_NAME for places). */
const MIN_TOWN_NAME = 3;

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

/** loadOfferPlacer's one placer per process: the committed files do not change while it runs. */
let committedPlacer: OfferPlacer | undefined;

/**
 * The committed gazetteer (with its points), towns, prepositions and departure words, with their
 * version: read once per process (88,000 towns take a second or more to load; a placer holds no
 * state of a reindex, so every app of the process, the test suites' many among them, shares it).
 */
export function loadOfferPlacer(): OfferPlacer {
  return (committedPlacer ??= readOfferPlacer());
}

function readOfferPlacer(): OfferPlacer {
  const paths = [
    COUNTRIES_PATH,
    PLACES_PATH,
    PLACE_POINTS_PATH,
    TOWNS_PATH,
    REGIONS_PATH,
    PLACE_PREPOSITIONS_PATH,
    DEPARTURE_WORDS_PATH,
  ];
  return new OfferPlacer(
    loadGazetteer(),
    loadPlacePrepositions(),
    loadDepartureWords(),
    placingVersion(paths),
    loadTowns(),
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
