import type { RankingRequest } from './travels-request';
import type { Sql } from './travel-listing.sql';
import { foldWords } from '../glossary/glossary';
import type { QueryTerm } from '../text-index/query-terms';
import {
  coverageOf,
  part,
  partsScore,
  QUERY_WORDS,
  queryTermCtes,
  queryTermsSource,
  scoreOf,
} from './text-side.sql';

/**
 * The explain mode's one extra statement (`explain=true`, apps/search/README.md, "Explain mode"):
 * for the offers `ids` of a ranked page, every query term each holds, with the text side's own
 * CTEs and formulas (text-side.sql.ts), so that its numbers are the ones that ranked the page:
 *
 * - per offer, query word and term: the term's `kind` and `weight` (a `real`, as written: 0.3, not
 *   0.30000001…), its part (an integer, the
 *   text side's `part`) and whether it is the word's best form (the highest part; ties on term,
 *   then kind), which alone counts;
 * - per offer: whether the query selects it (`matches`: else its text score is 0, as the listings
 *   count it), the share of the query it covers (`coverage`, the score's multiplier) and its text
 *   `score` (`scoreOf`, as the text side computes it);
 * - `token`: the query word a term counts for, folded and split as the analyser splits the search
 *   (its first QUERY_WORDS words): word `i` is the i-th, `-i` the second part of the i-th (a
 *   compound), `1000 + i` the pair of the (i − 1)-th and i-th.
 *
 * Read by offer from search_postings_offer_idx. Columns: id, word, token, term, kind, weight,
 * part, best, matches, coverage, score; ordered by offer, word, best form first.
 */
export function explainTermsSql(request: RankingRequest, queryTerms: QueryTerm[], ids: string[]): Sql {
  const values: unknown[] = [foldWords(request.search).slice(0, QUERY_WORDS)];
  const terms = queryTermsSource(queryTerms, values);
  values.push(ids);
  const offers = `$${values.length}::text[]`;
  return {
    text: `WITH ${queryTermCtes(terms, true)},
      folded AS MATERIALIZED (SELECT $1::text[] AS words),
      held AS MATERIALIZED (
        SELECT p.offer_id AS id, q.word, q.term, q.kind, q.weight, q.selects, q.cov, ${part('q', 'p')} AS part
        FROM search_postings p JOIN qs q ON q.term = p.term
        WHERE p.offer_id = ANY (${offers}) AND p.term IN (SELECT term FROM qs)
      ),
      per_word AS MATERIALIZED (
        SELECT id, word, bool_or(selects) AS selects, max(part) AS part, max(cov) AS cov
        FROM held GROUP BY id, word
      ),
      per_offer AS MATERIALIZED (
        SELECT id, coalesce(bool_or(selects), false) AS matches, ${coverageOf('sum(cov)')} AS coverage,
          ${scoreOf('sum(part)', 'sum(cov)')} AS score
        FROM per_word GROUP BY id
      )
      SELECT h.id, h.word,
        CASE WHEN h.word >= 1000 THEN f.words[h.word - 1001] || ' ' || f.words[h.word - 1000]
          ELSE f.words[abs(h.word)] END AS token,
        h.term, h.kind, h.weight::numeric::float8 AS weight, h.part::float8 AS part,
        row_number() OVER (PARTITION BY h.id, h.word ORDER BY h.part DESC, h.term, h.kind) = 1 AS best,
        o.matches, o.coverage::float8 AS coverage, o.score::float8 AS score,
        ${partsScore('h.part')} * o.coverage AS contribution
      FROM held h JOIN per_offer o ON o.id = h.id, folded f
      ORDER BY h.id, abs(h.word % 1000), h.word, best DESC, h.part DESC, h.term`,
    values,
  };
}
