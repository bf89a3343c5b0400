import { textQueryOf } from '../src/text-index/query-terms';
import type { QueryTerm } from '../src/text-index/query-terms';
import { wordKey } from '../src/analysis/query-words';
import { roundHalfEven, SCALE } from '../src/analysis/similarity';
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
 * 1e6)` and the word's concept weight (`conceptWeight`) when it holds any form; the score is the parts' sum
 * / 1e6 times the share of the query's concept weight covered; a match holds a selecting term;
 * kept at or above the floor; ranked by the concept weight covered, then score, then id (code
 * points). Slow and obvious on purpose: the in-memory index is checked against it.
 */
export async function referenceTextPage(
  app: TestApp,
  request: RankingRequest,
  terms: QueryTerm[],
): Promise<ReferencePage> {
  const query = textQueryOf(terms);
  const postings = (await app.dataSource.query(
    'SELECT offer_id AS id, term, impact FROM search_postings WHERE term = ANY($1::text[])',
    [query.terms.map((term) => term.term)],
  )) as { id: string; term: string; impact: number }[];
  const params = new SqlParams();
  const passingSql = params.sql(
    `SELECT o.id FROM travel_offers o ${whereClause(filterConditions(request.filters, params))}`,
  );
  const passing = new Set(
    ((await app.dataSource.query(passingSql.text, passingSql.values)) as { id: string }[]).map(
      (row) => row.id,
    ),
  );
  const held = new Map<string, { term: string; impact: number }[]>();
  for (const posting of postings) {
    if (!passing.has(posting.id)) continue;
    held.set(posting.id, [...(held.get(posting.id) ?? []), posting]);
  }
  const scored: { id: string; score: number; covered: number }[] = [];
  for (const [id, offerPostings] of held) {
    const impactOf = new Map(offerPostings.map((posting) => [posting.term, posting.impact]));
    const parts = new Map<string, number>();
    const conceptWeights = new Map<string, number>();
    let selected = false;
    for (const term of query.terms) {
      const impact = impactOf.get(term.term);
      if (impact === undefined) continue;
      if (term.selects) selected = true;
      const part = roundHalfEven(term.factor * Math.fround(impact) * SCALE);
      const word = wordKey(term.word);
      parts.set(word, Math.max(parts.get(word) ?? 0, part));
      conceptWeights.set(word, Math.max(conceptWeights.get(word) ?? 0, term.conceptWeight));
    }
    if (!selected) continue;
    const partSum = [...parts.values()].reduce((sum, part) => sum + part, 0);
    const covered = [...conceptWeights.values()].reduce((sum, weight) => sum + weight, 0);
    const coverage = query.coverable > 0 ? Math.min(1, covered / query.coverable) : NaN;
    const score = (partSum / SCALE) * coverage;
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
