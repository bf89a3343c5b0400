import { wordKey } from '../../query/analysis/query-words';
import type { QueryWord } from '../../query/analysis/query-words';
import { contributionOf, PLACE_FIELDS } from '../../query/analysis/similarity';
import type { ScoreRecorder } from '../../query/analysis/similarity';
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
export function queryConceptsOf(query: Pick<AnalysedQuery, 'terms' | 'words'>): QueryConcept[] {
  const { terms, words } = query;
  const concepts = new Map<string, { word: QueryWord; weight: number; documents: number; idf: number }>();
  for (const term of terms) {
    if (term.word.kind === 'pair' || term.conceptWeight <= 0) continue;
    const key = wordKey(term.word);
    const known = concepts.get(key);
    const weight = Math.max(known?.weight ?? 0, term.conceptWeight);
    // the word's own idf: the highest its forms are scored with (no expansion's is higher)
    const rarest = known === undefined || term.conceptIdf > known.idf;
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
  analysed: Pick<AnalysedQuery, 'terms' | 'words'>,
  ids: string[],
  preference?: LanguagePreference,
): ExplainTermRow[] {
  const { terms, words } = analysed;
  const query = textQueryOf(terms, preference);
  const known = ids.map((id) => index.ordinalOf(id)).filter((ordinal) => ordinal !== undefined);
  const records = new ExplainRecords();
  index.explain(query, Int32Array.from(new Set(known)).sort(), records);
  const rows: ExplainTermRow[] = [];
  for (const id of ids) {
    const ordinal = index.ordinalOf(id);
    if (ordinal === undefined) continue;
    const { parts, coverage, score, languageFactor } = records.of(ordinal);
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
    const matches = parts.some(({ term }) => query.terms[term].selects);
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
  return rows;
}

/** What TextIndex.explain records, by offer: each term's part (by the term's number in the query) and its score. */
class ExplainRecords implements ScoreRecorder {
  private readonly offers = new Map<number, OfferRecord>();

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
      this.offers.set(ordinal, (record = { parts: [], coverage: NaN, score: NaN, languageFactor: 1 }));
    return record;
  }
}

interface OfferRecord {
  parts: { term: number; part: number; fields: number }[];
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
