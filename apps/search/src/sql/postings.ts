import type { Sql } from '@rt/database';
import { BM25_B, BM25_K1, FIELD_BITS, FIELD_BOOSTS } from '../query/analysis/similarity';

/** Whose postings the statements write: the staged offers' (a reindex), or every offer's. */
export type PostingOffers = 'staged' | 'all';

/**
 * The BM25 indexer of the reindex, run in its apply transaction (the text side's inverted index,
 * apps/search/README.md "The text side"): each lexeme occurrence of `search_vector` weighs its
 * field's boost (analysis/similarity.ts, FIELD_BOOSTS, by the lexeme's weight A–D); a pair of
 * adjacent lexemes of one field is a term of its own ("ski zermatt"). An offer's weighted length
 * goes to `search_lengths`; a posting keeps its BM25 term-frequency part (`impact`: BM25_K1,
 * BM25_B; migration ImpactOrderedPostings) against `search_stats.reference_length` (the average
 * length itself on a first build, or after the catalogue was empty) and the fields the term occurs
 * in (`fields`: a bit per weight, FIELD_BITS; migration AddPostingFields), which tell where a place
 * named by a search is covered (analysis/similarity.ts, PLACE_FIELDS). Written in offer order, so
 * that an offer's postings share a page or two. The statements, in order: the terms of the offers
 * with their weighted counts (a temporary table), their lengths, their postings, the table
 * dropped. The similarity's constants are written as SQL literals (sqlNumber).
 */
export function postingsSql(offers: PostingOffers): Sql[] {
  const where = offers === 'staged' ? 'o.id IN (SELECT id FROM travel_offers_staging)' : 'true';
  const boost = `CASE p.weight WHEN 'A' THEN ${sqlNumber(FIELD_BOOSTS.A)} WHEN 'B' THEN ${sqlNumber(FIELD_BOOSTS.B)} WHEN 'C' THEN ${sqlNumber(FIELD_BOOSTS.C)} ELSE ${sqlNumber(FIELD_BOOSTS.D)} END`;
  const bit = `CASE p.weight WHEN 'A' THEN ${FIELD_BITS.A} WHEN 'B' THEN ${FIELD_BITS.B} WHEN 'C' THEN ${FIELD_BITS.C} ELSE ${FIELD_BITS.D} END`;
  const k1 = sqlNumber(BM25_K1);
  const impact = `t.tf * ${sqlNumber(BM25_K1 + 1)} / (t.tf + ${k1} * (${sqlNumber(1 - BM25_B)} + ${sqlNumber(BM25_B)} * l.length / r.reference))`;
  return [
    `
    CREATE TEMPORARY TABLE posting_terms ON COMMIT DROP AS
    WITH occurrences AS (
      SELECT o.id, u.lexeme, p.pos, p.weight,
        ${boost} AS boost, ${bit} AS bit
      FROM travel_offers o, unnest(o.search_vector) u, unnest(u.positions, u.weights) p(pos, weight)
      WHERE ${where}
    ),
    sequence AS (
      SELECT id, lexeme, pos, weight, boost, bit,
        lead(lexeme) OVER w AS next_lexeme, lead(pos) OVER w AS next_pos, lead(weight) OVER w AS next_weight
      FROM occurrences WINDOW w AS (PARTITION BY id ORDER BY pos)
    ),
    terms AS (
      SELECT id, lexeme AS term, boost, bit FROM sequence
      UNION ALL
      SELECT id, lexeme || ' ' || next_lexeme, boost, bit FROM sequence WHERE next_pos = pos + 1 AND next_weight = weight
    )
    SELECT id, term COLLATE "C" AS term, sum(boost)::float8 AS tf, sum(boost) FILTER (WHERE strpos(term, ' ') = 0)::float8 AS length,
      bit_or(bit)::smallint AS fields
    FROM terms GROUP BY id, term`,
    `
    INSERT INTO search_lengths (offer_id, length)
    SELECT id, sum(length)::real FROM posting_terms GROUP BY id`,
    `
    INSERT INTO search_postings (term, offer_id, impact, fields)
    SELECT t.term, t.id, (${impact})::real, t.fields
    FROM posting_terms t JOIN search_lengths l ON l.offer_id = t.id,
      (SELECT coalesce((SELECT reference_length FROM search_stats WHERE offers > 0), (SELECT avg(length) FROM search_lengths)) AS reference) r
    ORDER BY t.id, t.term`,
    'DROP TABLE posting_terms',
  ].map((text) => ({ text, values: [] }));
}

/**
 * A constant as a numeric literal of the statement: an integer with one decimal (`3.0`, numeric as
 * the others), else JavaScript's shortest decimal (`0.75`, `2.2`).
 */
export function sqlNumber(value: number): string {
  return Number.isInteger(value) ? value.toFixed(1) : String(value);
}
