import type { AnalysedQuery } from '../src/query/analysis/analysed-query';
import { textQueryOf } from '../src/indexes/text-index/query-terms';
import { wordKey } from '../src/query/analysis/query-words';
import {
  languageFactorOf,
  PLACE_FIELDS,
  PLACE_MENTION_CONCEPT,
  roundHalfEven,
  SCALE,
} from '../src/query/analysis/similarity';
import { filterConditions, whereClause } from '../src/sql/filter-conditions';
import { SqlParams } from '../src/sql/sql-params';
import type { RankingRequest } from '../src/request/listing-request';
import type { TestApp } from './test-app';

/** A text-side page as the definition gives it: ids, scores and ranks, and the total. */
export interface ReferencePage {
  total: number;
  rows: { id: string; tsvector_score: number; position: number }[];
}

/**
 * The full-text ranking worked out from its definition (apps/search/README.md, "The text side"),
 * in plain code over what the database holds: the postings of the query's terms as the reindex
 * wrote them (`search_postings`, not the blocks the in-memory index loads) and the offers passing
 * the filters (by SQL). Per offer: per query word its best form's part `round(factor × impact ×
 * 1e6)` and the word's concept weight (`conceptWeight`) when it holds any form (a place's form only
 * where its posting's fields include the name or the destination, elsewhere it counts as
 * PLACE_MENTION_CONCEPT); the score is the parts' sum
 * / 1e6 times the share of the query's concept weight covered, times 1 + the language preference
 * for an offer written in the search's guessed language; a match holds a selecting term;
 * kept at or above the floor; ranked by the concept weight covered, then score, then id (code
 * points). Slow and obvious on purpose: the in-memory index is checked against it.
 */
export async function referenceTextPage(
  app: TestApp,
  request: RankingRequest,
  analysed: AnalysedQuery,
): Promise<ReferencePage> {
  const { language } = analysed;
  const query = textQueryOf(analysed.terms, { language, strength: request.tuning.languagePreference });
  const postings = (await app.dataSource.query(
    'SELECT offer_id AS id, term, impact, fields FROM search_postings WHERE term = ANY($1::text[])',
    [query.terms.map((term) => term.term)],
  )) as { id: string; term: string; impact: number; fields: number | null }[];
  const languages = new Map(
    (
      (await app.dataSource.query(`SELECT id, record ->> 'language' AS language FROM travel_offers`)) as {
        id: string;
        language: string | null;
      }[]
    ).map((row) => [row.id, row.language]),
  );
  const params = new SqlParams();
  const passingSql = params.sql(
    `SELECT o.id FROM travel_offers o ${whereClause(filterConditions(request.filters, params))}`,
  );
  const passing = new Set(
    ((await app.dataSource.query(passingSql.text, passingSql.values)) as { id: string }[]).map(
      (row) => row.id,
    ),
  );
  const held = new Map<string, { term: string; impact: number; fields: number | null }[]>();
  for (const posting of postings) {
    if (!passing.has(posting.id)) continue;
    held.set(posting.id, [...(held.get(posting.id) ?? []), posting]);
  }
  const scored: { id: string; score: number; covered: number }[] = [];
  for (const [id, offerPostings] of held) {
    const postingOf = new Map(offerPostings.map((posting) => [posting.term, posting]));
    const parts = new Map<string, number>();
    const conceptWeights = new Map<string, number>();
    let selected = false;
    for (const term of query.terms) {
      const posting = postingOf.get(term.term);
      if (posting === undefined) continue;
      if (term.selects) selected = true;
      const part = roundHalfEven(term.factor * Math.fround(posting.impact) * SCALE);
      const word = wordKey(term.word);
      parts.set(word, Math.max(parts.get(word) ?? 0, part));
      const where = posting.fields === null || (posting.fields & PLACE_FIELDS) !== 0;
      const weight = term.placeOnly && !where ? PLACE_MENTION_CONCEPT : term.conceptWeight;
      conceptWeights.set(word, Math.max(conceptWeights.get(word) ?? 0, weight));
    }
    if (!selected) continue;
    const partSum = [...parts.values()].reduce((sum, part) => sum + part, 0);
    const covered = [...conceptWeights.values()].reduce((sum, weight) => sum + weight, 0);
    const coverage = query.coverable > 0 ? Math.min(1, covered / query.coverable) : NaN;
    const preferred = query.language !== undefined && languages.get(id) === language;
    const score =
      (partSum / SCALE) * coverage * languageFactorOf(preferred, request.tuning.languagePreference);
    if (score >= request.tuning.tsvectorFloor) scored.push({ id, score, covered });
  }
  scored.sort(
    (a, b) => b.covered - a.covered || b.score - a.score || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0),
  );
  const { offset, limit } = request.page;
  return {
    total: scored.length,
    rows: scored
      .slice(offset, offset + limit)
      .map((row, i) => ({ id: row.id, tsvector_score: row.score, position: offset + i + 1 })),
  };
}
