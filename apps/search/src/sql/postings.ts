import type { Sql } from '@rt/database';
import {
  BM25_B,
  BM25_K1,
  DESTINATION_BIT,
  FIELD_BITS,
  FIELD_BOOSTS,
  INDEXED_PART_SHARE,
} from '../query/analysis/similarity';

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
 * in (`fields`: a bit per weight, FIELD_BITS, and DESTINATION_BIT for a term of the destination;
 * migrations AddPostingFields, IndexCompoundParts), which tell where a place named by a search is
 * covered (analysis/similarity.ts, PLACE_FIELDS) and whether the offer counts towards the term's
 * frequency (countsTowardsFrequency, D-86). An occurrence of a compound (`offer_compound_parts`,
 * offerWordsSql) also counts INDEXED_PART_SHARE of an occurrence of each of its parts, in its
 * field, adding nothing to the offer's length (D-86). Written in offer order, so
 * that an offer's postings share a page or two. The statements, in order: the terms of the offers
 * with their weighted counts (a temporary table), their lengths, their postings, the table
 * dropped. The similarity's constants are written as SQL literals (sqlNumber).
 */
export function postingsSql(offers: PostingOffers): Sql[] {
  const where = offersWhere(offers);
  const boost = `CASE p.weight WHEN 'A' THEN ${sqlNumber(FIELD_BOOSTS.A)} WHEN 'B' THEN ${sqlNumber(FIELD_BOOSTS.B)} WHEN 'C' THEN ${sqlNumber(FIELD_BOOSTS.C)} ELSE ${sqlNumber(FIELD_BOOSTS.D)} END`;
  const bit = `CASE p.weight WHEN 'A' THEN ${FIELD_BITS.A} WHEN 'B' THEN ${FIELD_BITS.B} WHEN 'C' THEN ${FIELD_BITS.C} ELSE ${FIELD_BITS.D} END`;
  // a pair is in the destination when both its words are
  const pairBit = `bit & (next_bit | ${FIELD_BITS.A | FIELD_BITS.B | FIELD_BITS.C | FIELD_BITS.D})`;
  const k1 = sqlNumber(BM25_K1);
  const impact = `t.tf * ${sqlNumber(BM25_K1 + 1)} / (t.tf + ${k1} * (${sqlNumber(1 - BM25_B)} + ${sqlNumber(BM25_B)} * l.length / r.reference))`;
  return [
    `
    CREATE TEMPORARY TABLE posting_terms ON COMMIT DROP AS
    WITH occurrences AS (
      SELECT o.id, u.lexeme, p.pos, p.weight,
        ${boost} AS boost,
        ${bit} | CASE WHEN p.weight = 'B' AND u.lexeme = ANY (d.lexemes) THEN ${DESTINATION_BIT} ELSE 0 END AS bit
      FROM travel_offers o
        CROSS JOIN LATERAL (${DESTINATION_LEXEMES_SQL} OFFSET 0) d,
        unnest(o.search_vector) u, unnest(u.positions, u.weights) p(pos, weight)
      WHERE ${where}
    ),
    sequence AS (
      SELECT id, lexeme, pos, weight, boost, bit,
        lead(lexeme) OVER w AS next_lexeme, lead(pos) OVER w AS next_pos, lead(weight) OVER w AS next_weight,
        lead(bit) OVER w AS next_bit
      FROM occurrences WINDOW w AS (PARTITION BY id ORDER BY pos)
    ),
    terms AS (
      SELECT id, lexeme AS term, boost, bit, true AS whole FROM sequence
      UNION ALL
      SELECT id, lexeme || ' ' || next_lexeme, boost, ${pairBit}, true FROM sequence WHERE next_pos = pos + 1 AND next_weight = weight
      UNION ALL
      SELECT s.id, c.part, s.boost * ${sqlNumber(INDEXED_PART_SHARE)}, s.bit, false
      FROM sequence s JOIN offer_compound_parts c ON c.lexeme = s.lexeme
    )
    SELECT id, term COLLATE "C" AS term, sum(boost)::float8 AS tf,
      sum(boost) FILTER (WHERE whole AND strpos(term, ' ') = 0)::float8 AS length,
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
    'DROP TABLE offer_compound_parts',
    'DROP TABLE offer_words',
  ].map((text) => ({ text, values: [] }));
}

/** The condition on `travel_offers o` of the offers whose postings are written. */
function offersWhere(offers: PostingOffers): string {
  return offers === 'staged' ? 'o.id IN (SELECT id FROM travel_offers_staging)' : 'true';
}

/**
 * The lexemes of offer `o`'s destination (`lexemes`), as `search_vector` writes them (migration
 * AddTextSide): weight B holds the destination and the first category, and these tell them apart.
 */
export const DESTINATION_LEXEMES_SQL = `SELECT tsvector_to_array(to_tsvector(travel_language_config(o.record ->> 'language'),
          travel_fold(coalesce(o.destination_name, '')))) AS lexemes`;

/**
 * The first statements of the BM25 indexer (before postingsSql): the distinct lexemes of the
 * offers whose postings are written (`offer_words`, a temporary table), and an empty table of
 * their compounds' parts (`offer_compound_parts`: a lexeme and one of its parts per row), which
 * the reindex fills with the query's splitter (offer-compounds.ts) before postingsSql reads it.
 */
export function offerWordsSql(offers: PostingOffers): Sql[] {
  return [
    `
    CREATE TEMPORARY TABLE offer_words ON COMMIT DROP AS
    SELECT DISTINCT lexeme FROM travel_offers o, unnest(tsvector_to_array(o.search_vector)) lexeme
    WHERE ${offersWhere(offers)}`,
    'CREATE TEMPORARY TABLE offer_compound_parts (lexeme text NOT NULL, part text NOT NULL) ON COMMIT DROP',
  ].map((text) => ({ text, values: [] }));
}

/**
 * A constant as a numeric literal of the statement: an integer with one decimal (`3.0`, numeric as
 * the others), else JavaScript's shortest decimal (`0.75`, `2.2`).
 */
export function sqlNumber(value: number): string {
  return Number.isInteger(value) ? value.toFixed(1) : String(value);
}
