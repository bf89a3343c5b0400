/**
 * The text side of a search (apps/search/README.md, "The text side"), as CTEs shared by the hybrid
 * statement (hybrid-listing.sql.ts) and the full-text fallback (travel-listing.sql.ts):
 *
 * - `qt`: the query's terms (`travel_query_terms`, migration AddTextSide: folded words, their
 *   French, German and English stems, typo corrections, compound parts, pairs of adjacent words)
 *   with their BM25 idf and whether they are frequent (a stop word, or held by more than
 *   FREQUENT_WORD_SHARE of the offers);
 * - `cand`: the offers matching the query (and the filters): those holding a term of a query word
 *   that is not frequent; when every word is frequent, those holding the rarest word (highest idf). Frequent
 *   words ("de", "the", "in") still add to the score of the offers the other words find
 *   (Elasticsearch's common-terms cut-off), so a long sentence costs what its rare words cost;
 * - `scored`: every candidate's score, BM25 (k1 1.2, b 0.75, idf raised to IDF_EXPONENT) over the field-weighted term
 *   frequencies of `search_postings` (each query term's postings read once, by index-only scans
 *   of search_postings_term_idx), each term counting times its weight (exact 1, compound part
 *   0.8, typo 0.6 / 0.4, adjacent pair 0.5, stop word 0.1), multiplied by the share of the query's
 *   weighted idf the offer covers, at most 1 (so an offer holding all words beats one holding
 *   some). An offer holding two forms of one word (rare: an offer is stemmed in one language)
 *   counts both.
 */
export const QUERY_WORDS = 16;
export const FREQUENT_WORD_SHARE = 0.1;
/** Rarity weighs more than in plain BM25 (measured: docs/benchmarks.md, part 3). */
export const IDF_EXPONENT = 1.5;
const K1 = 1.2;
const B = 0.75;

/** The CTEs (without `WITH`); `search` is the parameter holding the search, `and` the filter conditions on `o`. */
export function textSideCtes(search: string, and: string): string {
  // With filters, each selected offer is checked under them by its primary key (measured faster
  // than joining the filter indexes' offers: docs/benchmarks.md, part 3).
  const candidates = and
    ? `SELECT o.id FROM travel_offers o WHERE o.id IN (SELECT offer_id FROM selected_postings)${and}`
    : `SELECT DISTINCT offer_id AS id FROM selected_postings`;
  const postings = (which: string) => `
        SELECT p.offer_id, qt.word,
          qt.weight * power(qt.idf, ${IDF_EXPONENT}) * p.tf * ${K1 + 1}::float8
            / (p.tf + ${K1}::float8 * (${1 - B}::float8 + ${B}::float8 * p.dl / qt.average_length)) AS part,
          qt.weight * power(qt.idf, ${IDF_EXPONENT}) AS covered
        FROM qt CROSS JOIN LATERAL (
          SELECT p.offer_id, p.tf, p.dl FROM search_postings p WHERE p.term = qt.term
        ) p
        WHERE ${which}`;
  return `qt AS MATERIALIZED (
        SELECT t.word, t.term, t.weight::float8 AS weight, st.average_length::float8 AS average_length,
          ln(1 + (st.offers - t.documents + 0.5::float8) / (t.documents + 0.5::float8)) AS idf,
          t.kind = 'stop' OR t.documents > ${FREQUENT_WORD_SHARE} * st.offers AS frequent
        FROM (SELECT offers, average_length FROM search_stats LIMIT 1) st,
          travel_query_terms(${search}, ${QUERY_WORDS}) t
      ),
      fallback_word AS MATERIALIZED (
        SELECT r.word FROM qt r
        WHERE r.word < 1000 AND NOT EXISTS (SELECT 1 FROM qt x WHERE x.word < 1000 AND NOT x.frequent)
        ORDER BY r.idf DESC, r.word LIMIT 1
      ),
      -- the postings of the terms that select offers and of the others, each term's read once by
      -- an index-only scan of search_postings_term_idx (MATERIALIZED: the others then meet the
      -- candidates in a hash join, not in one index probe per candidate and term)
      selected_postings AS MATERIALIZED (${postings(
        '(qt.word < 1000 AND NOT qt.frequent) OR qt.word IN (SELECT word FROM fallback_word)',
      )}
      ),
      cand AS MATERIALIZED (${candidates}),
      other_postings AS MATERIALIZED (${postings(
        'NOT ((qt.word < 1000 AND NOT qt.frequent) OR qt.word IN (SELECT word FROM fallback_word))',
      )}
      ),
      coverable AS MATERIALIZED (
        SELECT sum(best) AS total FROM (SELECT max(weight * power(idf, ${IDF_EXPONENT})) AS best FROM qt WHERE word < 1000 GROUP BY word) w
      ),
      scored AS MATERIALIZED (
        SELECT tp.offer_id AS id, (sum(tp.part) * least(1, coalesce(sum(tp.covered) FILTER (WHERE tp.word < 1000), 0)
          / nullif((SELECT total FROM coverable), 0)))::float8 AS score
        FROM (
          SELECT offer_id, word, part, covered FROM selected_postings
          ${and ? 'WHERE offer_id IN (SELECT id FROM cand)' : ''}
          UNION ALL
          SELECT offer_id, word, part, covered FROM other_postings WHERE offer_id IN (SELECT id FROM cand)
        ) tp
        GROUP BY tp.offer_id
      )`;
}
