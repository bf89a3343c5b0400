import { wordKey } from '../../query/analysis/query-words';
import type { QueryWord } from '../../query/analysis/query-words';
import { contributionOf, PLACE_CONCEPT, PLACE_FIELDS } from '../../query/analysis/similarity';
import type { ScoreRecorder } from '../../query/analysis/similarity';
import type { ResolvedPlace } from '../../query/analysis/analysed-query';
import { placeHowOf } from './place-coverage';
import type { PlaceHow, PlaceRecorder, RecordedPlace } from './place-coverage';
import { compareCodePoints } from '../../query/analysis/tokenizer';
import type { AnalysedQuery } from '../../query/analysis/analysed-query';
import { textQueryOf } from './query-terms';
import type { LanguagePreference } from './query-terms';
import type { TextIndex } from './text-index';

/** A row of the explain mode: one query term an offer of the page holds. */
export interface ExplainTermRow {
  id: string;
  /** The query word the term counts for: a word, a compound's tail or a pair (analysis/query-words.ts). */
  word: QueryWord;
  /** The query word (or pair of words) folded, as the text side split the search. */
  token: string | null;
  term: string;
  kind: string;
  weight: number;
  /** The term's part of the score, times 1e6 (an integer). */
  part: number;
  /** Whether the term is its word's best form for this offer (the one that counts). */
  best: boolean;
  /** Whether the query selects the offer (else its text score is 0). */
  matches: boolean;
  /** The share of the query the offer covers, at most 1 (the score's multiplier); null when nothing is coverable. */
  coverage: number | null;
  /** The offer's text score, as the text side computes it (null as coverage). */
  score: number | null;
  /** part / 1e6 × coverage × languageFactor: the term's share of the score when it counts (null as coverage). */
  contribution: number | null;
  /**
   * Whether the term covers its word's concept (query-terms.ts, `conceptWeight`): a place's form
   * only where the offer holds it in its name or destination.
   */
  covers: boolean;
  /**
   * For a form of a place the search names: `destination_or_name` where the offer holds it in its
   * name or destination (it covers the place), `mention_only` where only elsewhere (it scores but
   * covers nothing); null for the forms of other words.
   */
  place: PlaceCoverage | null;
  /** The factor the offer's score was multiplied by for being written in the search's language (1: none). */
  languageFactor: number;
  /**
   * For the offer's coverage of a place by where it is (kind `location`, D-88b): the place's id, how
   * the offer covers it, its distance from the place's point and the share of the place it covers.
   */
  location?: OfferLocation;
}

/** How an offer covers a place the search names by where it is (D-88b). */
export interface OfferLocation {
  place: string;
  how: PlaceHow;
  /** Kilometres from the place's point to the offer's nearest point; null when either is unknown. */
  distanceKm: number | null;
  share: number;
}

/** A place the search names as resolved against where the offers are (explain's `places`). */
export interface ExplainedPlace {
  place: ResolvedPlace;
  /** Whether an offer of the catalogue lies inside it (else it is outside the catalogue). */
  holdsOffers: boolean;
}

/** Where a place the search names is found in an offer (ExplainTermRow.place). */
export type PlaceCoverage = 'destination_or_name' | 'mention_only';

/**
 * A concept of a search: its query word (and the word folded), its weight, and the word's document
 * frequency and idf: those of the rarest of its forms, which its expansions never exceed
 * (query-terms.ts, `conceptDocuments`).
 */
export interface QueryConcept {
  word: QueryWord;
  token: string;
  weight: number;
  documents: number;
  idf: number;
}

/** The concepts of a search (its query words of some concept weight), in query order, a word before its tail. */
export function queryConceptsOf(
  query: Pick<AnalysedQuery, 'terms' | 'words'> & { expansion?: Pick<AnalysedQuery['expansion'], 'places'> },
): QueryConcept[] {
  const { terms, words } = query;
  const concepts = new Map<string, { word: QueryWord; weight: number; documents: number; idf: number }>();
  // a place no term of the index names (a town no offer names) is a concept all the same, covered
  // by where the offers are (D-88b): no document frequency of its own (0)
  for (const place of query.expansion?.places ?? []) {
    const word = { kind: 'word', position: place.position } as const;
    concepts.set(wordKey(word), { word, weight: PLACE_CONCEPT, documents: 0, idf: 0 });
  }
  for (const term of terms) {
    if (term.word.kind === 'pair' || term.conceptWeight <= 0) continue;
    const key = wordKey(term.word);
    const known = concepts.get(key);
    const weight = Math.max(known?.weight ?? 0, term.conceptWeight);
    // the word's own idf: the highest its forms are scored with (no expansion's is higher)
    const rarest = known === undefined || known.documents === 0 || term.conceptIdf > known.idf;
    const documents = rarest ? term.conceptDocuments : known.documents;
    const idf = rarest ? term.conceptIdf : known.idf;
    concepts.set(key, { word: term.word, weight, documents, idf });
  }
  return [...concepts.values()]
    .sort(
      (a, b) => a.word.position - b.word.position || CONCEPT_ORDER[a.word.kind] - CONCEPT_ORDER[b.word.kind],
    )
    .map(({ word, weight, documents, idf }) => ({
      word,
      token: tokenOf(words, word) ?? '',
      weight,
      documents,
      idf,
    }));
}

const CONCEPT_ORDER = { word: 0, tail: 1, pair: 2 } as const;
/** Rows by position, and at one position a compound's tail, then the word, then the pair ending there. */
const ROW_ORDER = { tail: 0, word: 1, pair: 2 } as const;

/**
 * Explain mode (apps/search/README.md, "Explain mode"): every query term each offer `ids` holds,
 * as the in-memory text index records them while it scores those offers (TextIndex.explain), so
 * that they add up to the scores that ranked the page:
 *
 * - per offer, query word and term: the term's `kind` and `weight` (a float4, given as its shortest
 *   decimal: 0.3, not 0.30000001…), its part (an integer) and whether it is the word's best form
 *   (the highest part; ties on term, then kind), which alone counts;
 * - per offer: whether the query selects it (`matches`: else its text score is 0, as the listings
 *   count it), the share of the query it covers (`coverage`, the score's multiplier) and its text
 *   `score`;
 * - `token`: the query word a term counts for, one of the search's folded words (AnalysedQuery
 *   .words): a word or a compound's tail, the word at its position; a pair, the word before it and
 *   the word.
 *
 * Ordered by offer (as `ids`), then word (ROW_ORDER), best form first, then part descending, then
 * term. An id the index does not hold has no row.
 */
export function explainTerms(
  index: TextIndex,
  analysed: Pick<AnalysedQuery, 'terms' | 'words'> & {
    expansion?: Pick<AnalysedQuery['expansion'], 'places'>;
  },
  ids: string[],
  preference?: LanguagePreference,
): ExplainTermRow[] {
  return explainSearch(index, analysed, ids, preference).rows;
}

/**
 * explainTerms's rows, with the places the search names as resolved against where the offers are
 * (D-88b: each place, whether it holds an offer of the catalogue) and whether every one is outside
 * the catalogue; an offer's coverage of a place by where it is is a row of kind `location`.
 */
export function explainSearch(
  index: TextIndex,
  analysed: Pick<AnalysedQuery, 'terms' | 'words'> & {
    expansion?: Pick<AnalysedQuery['expansion'], 'places'>;
  },
  ids: string[],
  preference?: LanguagePreference,
): { rows: ExplainTermRow[]; places: ExplainedPlace[]; placesOutside: boolean } {
  const { terms, words } = analysed;
  const query = textQueryOf(terms, preference, analysed.expansion?.places);
  const known = ids.map((id) => index.ordinalOf(id)).filter((ordinal) => ordinal !== undefined);
  const records = new ExplainRecords();
  index.explain(query, Int32Array.from(new Set(known)).sort(), records);
  const rows: ExplainTermRow[] = [];
  for (const id of ids) {
    const ordinal = index.ordinalOf(id);
    if (ordinal === undefined) continue;
    const { parts, placeParts, coverage, score, languageFactor } = records.of(ordinal);
    const located = placeParts.map(({ place: p, part, hit }): ExplainTermRow => {
      const { place, hits } = records.recorded[p];
      const distance = hits.distances[hit];
      return {
        id,
        word: { kind: 'word', position: place.position },
        token: place.token,
        term: place.id,
        kind: 'location',
        weight: 1,
        part,
        best: false,
        matches: false,
        coverage: nullIfNaN(coverage),
        score: nullIfNaN(score),
        contribution: nullIfNaN(contributionOf(part, coverage) * languageFactor),
        covers: true,
        place: null,
        languageFactor,
        location: {
          place: place.id,
          how: placeHowOf(hits.how[hit]) ?? 'inside',
          distanceKm: Number.isNaN(distance) ? null : Math.round(distance * 10) / 10,
          share: hits.shares[hit],
        },
      };
    });
    const held = parts
      .sort((a, b) => a.term - b.term)
      .map(({ term: t, part, fields }): ExplainTermRow => {
        const term = terms[t];
        const { placeOnly, conceptWeight } = query.terms[t];
        const inPlace = (fields & PLACE_FIELDS) !== 0;
        return {
          id,
          word: term.word,
          token: tokenOf(words, term.word),
          term: term.term,
          kind: term.kind,
          weight: shortestFloat4(term.weight),
          part,
          best: false,
          matches: false,
          coverage: nullIfNaN(coverage),
          score: nullIfNaN(score),
          // times the offer's language factor, so that the contributions add up to its score
          contribution: nullIfNaN(contributionOf(part, coverage) * languageFactor),
          covers: conceptWeight > 0 && (placeOnly !== true || inPlace),
          place: placeOnly === true ? (inPlace ? 'destination_or_name' : 'mention_only') : null,
          languageFactor,
        };
      });
    held.push(...located);
    const matches =
      placeParts.length > 0 || (!records.outside && parts.some(({ term }) => query.terms[term].selects));
    const byWord = new Map<string, ExplainTermRow[]>();
    for (const row of held) {
      const key = wordKey(row.word);
      byWord.set(key, [...(byWord.get(key) ?? []), row]);
    }
    for (const forms of byWord.values()) {
      forms.sort(
        (a, b) => b.part - a.part || compareCodePoints(a.term, b.term) || a.kind.localeCompare(b.kind),
      );
      forms[0].best = true;
    }
    held.sort(
      (a, b) =>
        a.word.position - b.word.position ||
        ROW_ORDER[a.word.kind] - ROW_ORDER[b.word.kind] ||
        Number(b.best) - Number(a.best) ||
        b.part - a.part ||
        compareCodePoints(a.term, b.term),
    );
    for (const row of held) rows.push({ ...row, matches });
  }
  return {
    rows,
    places: records.recorded.map(({ place, holdsOffers }) => ({ place, holdsOffers })),
    placesOutside: records.outside,
  };
}

/** What TextIndex.explain records, by offer: each term's part (by the term's number in the query) and its score. */
class ExplainRecords implements ScoreRecorder, PlaceRecorder {
  private readonly offers = new Map<number, OfferRecord>();
  recorded: readonly RecordedPlace[] = [];
  outside = false;

  places(places: readonly RecordedPlace[], outside: boolean): void {
    this.recorded = places;
    this.outside = outside;
  }

  placePart(ordinal: number, place: number, part: number, hit: number): void {
    this.of(ordinal).placeParts.push({ place, part, hit });
  }

  part(ordinal: number, term: number, part: number, fields: number): void {
    this.of(ordinal).parts.push({ term, part, fields });
  }

  offer(ordinal: number, coverage: number, score: number, languageFactor: number): void {
    const record = this.of(ordinal);
    record.coverage = coverage;
    record.score = score;
    record.languageFactor = languageFactor;
  }

  of(ordinal: number): OfferRecord {
    let record = this.offers.get(ordinal);
    if (!record)
      this.offers.set(
        ordinal,
        (record = { parts: [], placeParts: [], coverage: NaN, score: NaN, languageFactor: 1 }),
      );
    return record;
  }
}

interface OfferRecord {
  parts: { term: number; part: number; fields: number }[];
  placeParts: { place: number; part: number; hit: number }[];
  coverage: number;
  score: number;
  languageFactor: number;
}

/** The query word (or pair) folded. */
function tokenOf(words: readonly string[], word: QueryWord): string | null {
  if (word.kind === 'pair') {
    const first = words[word.position - 2];
    const second = words[word.position - 1];
    return first === undefined || second === undefined ? null : `${first} ${second}`;
  }
  return words[word.position - 1] ?? null;
}

/** A float4 as its shortest decimal (PostgreSQL's `real::numeric`): Math.fround(0.3) → 0.3. */
export function shortestFloat4(value: number): number {
  for (let digits = 1; digits <= 9; digits++) {
    const decimal = Number(value.toPrecision(digits));
    if (Math.fround(decimal) === value) return decimal;
  }
  return value;
}

function nullIfNaN(value: number): number | null {
  return Number.isNaN(value) ? null : value;
}
