import type { QueryTerm } from '../text-index/query-terms';
import type { RankingRequest } from './travels-request';

/**
 * The text side of a search (apps/search/README.md, "The text side"), as CTEs shared by the hybrid
 * statement (hybrid-listing.sql.ts) and the full-text fallback (travel-listing.sql.ts).
 *
 * Scoring (both strategies below score alike):
 * - `qt`: the query's terms (the analyser's, src/text-index/query-analyser.ts: folded words, their
 *   French, German and English stems, typo corrections, compound parts, pairs of adjacent words,
 *   expansions; given as parameters, queryTermsSource) with their `factor`, the term's weight (exact 1, compound part
 *   0.8, typo 0.6 / 0.4, adjacent pair 0.5, glossary and synonym expansions their configured
 *   weights, stop word 0.1) times its BM25 idf raised to IDF_EXPONENT, and whether they are
 *   frequent (a stop word, or held by more than FREQUENT_WORD_SHARE of the offers; an expansion of
 *   a frequent word);
 * - a term "selects" offers unless it is frequent or a pair; when every word is frequent, the
 *   rarest word (highest idf) selects. Frequent words ("de", "the", "in") still add to the score
 *   of the offers the other words find (Elasticsearch's common-terms cut-off);
 * - an offer's score is the sum over the query words it holds of its best form's part,
 *   `factor × impact` (impact: the posting's BM25 term-frequency part, k1 1.2, b 0.75, stored by
 *   the reindex: migration ImpactOrderedPostings) rounded to 1e-6, multiplied by the share of the
 *   query's weighted idf the offer covers, at most 1 (so an offer holding all words beats one
 *   holding some).
 *
 * Two strategies:
 * - exhaustive (`textSideCtes`, CTE `scored`): every posting of every query term is read and every
 *   candidate scored; its cost follows the number of offers holding the words;
 * - top-k (`topTextSideCtes`, CTE `text_top`): unless the query's terms hold few postings, each
 *   term's best postings are read by impact (search_postings_term_impact_idx), the candidates seen
 *   there get bounds, those that can still reach the `wanted` best are completed, and the threshold
 *   algorithm's stopping rule proves that no unread posting can change those `wanted` best; when
 *   it cannot, the same statement scores every match (apps/search/README.md, "The text side").
 */
export const QUERY_WORDS = 16;
/**
 * The most index terms a query word gains by expansion (its expanded words' folded forms and stems
 * found in the index), those weighing most, then held by the most offers: each is a list the text
 * side reads (measured: docs/benchmarks.md, "Query expansion").
 */
export const EXPANSIONS_PER_WORD = 12;

/**
 * Relative slack of the bounds: they are sums in another order than the scores, so they may round
 * differently in the last bits; a bound is widened by this much before it excludes anything.
 */
const SLACK = 1e-9;

/**
 * Scores are sums of integers (each part rounded to 1e-6), so that they are the same bits whatever
 * order a plan adds them in: the top-k and the exhaustive strategies order ties alike.
 */
const SCALE = 1_000_000;

/**
 * The query's terms as a row source (for a FROM clause), appended to `values`: the analyser's
 * terms (src/text-index/query-analyser.ts: the folded words, their stems, typo corrections,
 * compound parts, pairs of adjacent words and expansions) with their BM25 factor and idf and
 * whether they are frequent (src/text-index/query-terms.ts), computed once in TypeScript so that
 * the SQL strategies score with the very numbers the in-memory side does.
 */
export function queryTermsSource(terms: QueryTerm[], values: unknown[]): string {
  values.push(
    terms.map((t) => t.word),
    terms.map((t) => t.term),
    terms.map((t) => t.documents),
    terms.map((t) => t.kind),
    terms.map((t) => t.weight),
    terms.map((t) => t.factor),
    terms.map((t) => t.idf),
    terms.map((t) => t.frequent),
  );
  const n = values.length;
  return `unnest($${n - 7}::int[], $${n - 6}::text[], $${n - 5}::int[], $${n - 4}::text[], $${n - 3}::real[],
          $${n - 2}::float8[], $${n - 1}::float8[], $${n}::bool[]) AS t(word, term, documents, kind, weight, factor, idf, frequent)`;
}

/**
 * What a search's expansion makes of its text side's statement: whether any term is expanded
 * (the top-k strategy then reads expanded lists apart), and whether an expanded phrase (a pair of
 * words) selects offers (a filtered count then reads postings, not the lexemes' index).
 */
export interface TextExpansion {
  terms: boolean;
  phrases: boolean;
}

const EXPANDED_KINDS = ['glossary', 'synonym'];

export function textExpansionOf(terms: QueryTerm[]): TextExpansion {
  const expanded = terms.filter((term) => EXPANDED_KINDS.includes(term.kind));
  return { terms: expanded.length > 0, phrases: expanded.some((term) => term.term.includes(' ')) };
}

/**
 * The query terms and which select (no `WITH`); `source` is their row source (queryTermsSource).
 * `explained`: `qt` and `qs` also carry each term's `weight` (the explain mode's statement,
 * explain.sql.ts; the listings never ask for it).
 */
export function queryTermCtes(source: string, explained = false): string {
  const weight = explained ? ', t.weight' : '';
  return `qt AS MATERIALIZED (
        SELECT t.word, t.term, t.documents, t.kind${weight}, t.factor, t.idf, t.frequent FROM ${source}
      ),
      fallback_word AS MATERIALIZED (
        SELECT r.word FROM qt r
        WHERE r.word < 1000 AND NOT EXISTS (SELECT 1 FROM qt x WHERE x.word < 1000 AND NOT x.frequent)
        ORDER BY r.idf DESC, r.word LIMIT 1
      ),
      qs AS MATERIALIZED (
        SELECT word, term, documents, kind, factor, CASE WHEN word < 1000 THEN round(factor * ${SCALE}) ELSE 0 END AS cov,
          (word < 1000 AND NOT frequent) OR word IN (SELECT word FROM fallback_word) AS selects${explained ? ', weight' : ''}
        FROM qt
      ),
      coverable AS MATERIALIZED (
        SELECT sum(best) AS total FROM (SELECT max(cov) AS best FROM qs WHERE word < 1000 GROUP BY word) w
      )`;
}

/** A posting's part of a score: `q` the query term, `p` the posting (an integer: the part times SCALE). */
export const part = (q: string, p: string) => `round(${q}.factor * ${p}.impact * ${SCALE})`;

/** A sum of parts (integers, `part`) as a score. */
export const partsScore = (parts: string) => `(${parts}) / ${SCALE}::float8`;

/** The share of the query a sum of per-word coverages covers, at most 1 (the multiplier of a score). */
export const coverageOf = (covered: string) =>
  `least(1, coalesce(${covered}, 0) / nullif((SELECT total FROM coverable), 0))`;

/** The score of per-word parts and coverage (sums of integers): their sum times the share of the query covered, at most 1. */
export const scoreOf = (parts: string, covered: string) => `${partsScore(parts)} * ${coverageOf(covered)}`;

/**
 * The exhaustive strategy's CTEs (without `WITH`): `scored (id, score)` for every candidate;
 * `and` holds the filter conditions on `o`.
 */
export function textSideCtes(terms: string, and: string): string {
  return `${queryTermCtes(terms)},
      ${exhaustiveScoringCtes(and)}`;
}

/** `scored (id, score)`: every candidate scored from all the postings of the query's terms. */
function exhaustiveScoringCtes(and: string, gate = ''): string {
  // With filters, each selected offer is checked under them by its primary key (measured faster
  // than joining the filter indexes' offers: docs/benchmarks.md, part 3).
  const candidates = and
    ? `SELECT o.id FROM travel_offers o WHERE o.id IN (SELECT offer_id FROM selected_postings)${and}`
    : `SELECT DISTINCT offer_id AS id FROM selected_postings`;
  const postings = (selects: boolean) => `
        SELECT p.offer_id, q.word, ${part('q', 'p')} AS part, q.cov
        FROM qs q CROSS JOIN LATERAL (
          SELECT p.offer_id, p.impact FROM search_postings p WHERE p.term = q.term
        ) p
        WHERE ${selects ? '' : 'NOT '}q.selects${gate}`;
  return `-- each term's postings read once by an index-only scan of search_postings_term_impact_idx
      -- (MATERIALIZED: the others then meet the candidates in a hash join, not in one index probe
      -- per candidate and term)
      selected_postings AS MATERIALIZED (${postings(true)}
      ),
      cand AS MATERIALIZED (${candidates}),
      other_postings AS MATERIALIZED (${postings(false)}
      ),
      scored AS MATERIALIZED (
        SELECT offer_id AS id, ${scoreOf('sum(part)', 'sum(cov)')} AS score
        FROM (
          SELECT tp.offer_id, max(tp.part) AS part, max(tp.cov) AS cov
          FROM (
            SELECT offer_id, word, part, cov FROM selected_postings
            ${and ? 'WHERE offer_id IN (SELECT id FROM cand)' : ''}
            UNION ALL
            SELECT offer_id, word, part, cov FROM other_postings WHERE offer_id IN (SELECT id FROM cand)
          ) tp
          GROUP BY tp.offer_id, tp.word
        ) words
        GROUP BY offer_id
      )`;
}

/**
 * How the text side is computed: `memory` in the replica's in-memory text index
 * (src/text-index/); in SQL, `top` reads each term's best postings and scores every match only
 * when it cannot prove the best (the hybrid statement's `exact` column says whether its page is
 * proven), `exhaustive` scores every match.
 */
export const TEXT_STRATEGIES = ['exhaustive', 'top', 'memory'] as const;
export type TextStrategy = (typeof TEXT_STRATEGIES)[number];
export type SqlTextStrategy = Exclude<TextStrategy, 'memory'>;

/**
 * The strategy of a ranking's first SQL statement: `top` (also for `memory`, whose SQL stand-in it
 * is), except that a `tsvectorFloor` above 0 needs every score (its count does), so only the
 * exhaustive strategy serves it.
 */
export function firstTextStrategy(tuning: RankingRequest['tuning']): SqlTextStrategy {
  return tuning.textStrategy !== 'exhaustive' && tuning.tsvectorFloor <= 0 ? 'top' : 'exhaustive';
}

/** How many postings of each term the top-k strategy reads. */
export interface TextReads {
  /**
   * A query whose terms hold at most this many postings in all is scored exhaustively: reading
   * them all costs less than the bounds (measured: docs/benchmarks.md, "Search speed at scale").
   */
  exhaustiveMaxPostings: number;
  /** A term held by at most this many offers has all its postings read. */
  fullRead: number;
  /** The fewest postings of a longer term read, best impact first. */
  minDepth: number;
  /** Postings of a longer term read per offer the text side needs exactly, when that is more. */
  depthPerWanted: number;
  /**
   * The share of those reads (`fullRead` and the depth) given to a glossary or synonym term: an
   * expanded word weighs less than the query's own, so its best postings rank lower, and a query
   * word may gain ten of them (docs/benchmarks.md, "Query expansion").
   */
  expansionShare?: number;
}

export const TEXT_READS: TextReads = {
  exhaustiveMaxPostings: 2000,
  fullRead: 1000,
  minDepth: 200,
  depthPerWanted: 2,
  expansionShare: 0.25,
};

/**
 * The top-k strategy's parameters (appended to `values`): the text side needs exactly the page's
 * rows and the semantic side's `semanticCandidates` best text matches.
 */
export function topTextParameters(
  request: RankingRequest,
  terms: QueryTerm[],
  values: unknown[],
  semanticCandidates: number,
  reads: TextReads = TEXT_READS,
): TopTextParameters {
  const wanted = Math.max(1, semanticCandidates, request.page.offset + request.page.limit);
  const depth = Math.max(reads.minDepth, reads.depthPerWanted * wanted);
  values.push(wanted, depth, reads.fullRead, reads.exhaustiveMaxPostings);
  const n = values.length;
  let parameters: TopTextParameters = {
    wanted: `$${n - 3}::int`,
    depth: `$${n - 2}::int`,
    fullRead: `$${n - 1}::int`,
    exhaustiveMaxPostings: `$${n}::int`,
  };
  // an expanded term's reads, only when the statement has expanded terms (an unused parameter
  // is refused)
  if (textExpansionOf(terms).terms) {
    const share = reads.expansionShare ?? 1;
    values.push(Math.max(1, Math.ceil(depth * share)), Math.ceil(reads.fullRead * share));
    parameters = {
      ...parameters,
      expansionDepth: `$${values.length - 1}::int`,
      expansionFullRead: `$${values.length}::int`,
    };
  }
  if (request.countLimit === undefined) return parameters;
  values.push(request.countLimit);
  return { ...parameters, countLimit: `$${values.length}::int` };
}

/**
 * Completing a candidate by offer costs about what reading this many postings of a list does
 * (measured: docs/benchmarks.md, "Search speed at scale").
 */
const POSTINGS_PER_OFFER_PROBE = 60;

/** The parameters of the top-k strategy: `$n` placeholders holding integers. */
export interface TopTextParameters {
  /** How many postings of each longer term are read, best impact first. */
  depth: string;
  /** A term held by at most this many offers has all its postings read. */
  fullRead: string;
  /** A query whose terms hold at most this many postings is scored exhaustively. */
  exhaustiveMaxPostings: string;
  /** `depth` and `fullRead` of a glossary or synonym term (a statement with expanded terms). */
  expansionDepth?: string;
  expansionFullRead?: string;
  /** How many best offers the caller needs exactly (`text_top` holds at most this many). */
  wanted: string;
  /** Count the matches up to this many (FilterRequest.countLimit); absent: all. */
  countLimit?: string;
}

/**
 * The top-k strategy's CTEs (without `WITH`):
 * - `text_top (id, score, rank)`: the `wanted` best candidates passing the filters, best first
 *   (ties on id), ranks from 1: the exhaustive strategy's first `wanted` rows;
 * - `text_matches (total)`: how many offers passing the filters the query selects (up to the
 *   count limit);
 * - `use_exhaustive (yes)` and `scored`: whether every candidate was scored, and their scores;
 * - `terms (word, term, factor, cov, selects)` for scoring other offers by `textScoreOf`.
 */
export function topTextSideCtes(
  terms: string,
  and: string,
  top: TopTextParameters,
  expansion: TextExpansion,
): string {
  const { wanted, countLimit } = top;
  const seen = and
    ? `SELECT o.id FROM travel_offers o WHERE o.id IN (
         SELECT h.offer_id FROM heads h JOIN lists l ON l.word = h.word AND l.term = h.term WHERE l.selects)${and}`
    : `SELECT DISTINCT h.offer_id AS id FROM heads h JOIN lists l ON l.word = h.word AND l.term = h.term WHERE l.selects`;
  // Filtered: the GIN index of the offers' lexemes meets the filter indexes in a bitmap, unless an
  // expanded phrase selects (`expansion.phrases`: a pair of words, which the lexemes cannot tell from
  // two words apart): then the selecting terms' postings, checked under the filters by primary key.
  // Unfiltered: one selecting term's count is its document count, several are a union of their
  // postings. With a count limit, the count stops one past the bound (the service then answers "gte").
  const limit = countLimit ? `LIMIT ${countLimit}` : '';
  const selecting = `o.search_vector @@ (
         SELECT string_agg('''' || replace(replace(term, '\\', '\\\\'), '''', '''''') || '''', ' | ')::tsquery
         FROM qs WHERE selects)`;
  const filteredMatches = expansion.phrases
    ? `SELECT count(*) FROM (
         SELECT 1 FROM travel_offers o WHERE o.id IN (
           SELECT p.offer_id FROM search_postings p WHERE p.term IN (SELECT term FROM qs WHERE selects))${and} ${limit}) m`
    : `SELECT count(*) FROM (SELECT 1 FROM travel_offers o WHERE ${selecting}${and} ${limit}) m`;
  const matches =
    and || countLimit
      ? filteredMatches
      : `SELECT CASE WHEN (SELECT count(DISTINCT term) FROM qs WHERE selects) <= 1
         THEN (SELECT coalesce(max(documents), 0) FROM qs WHERE selects)
         ELSE (SELECT count(*) FROM (SELECT p.offer_id FROM search_postings p
               WHERE p.term IN (SELECT term FROM qs WHERE selects) GROUP BY p.offer_id) d) END`;
  // A bound is widened by one unit of the parts (rounding) and by SLACK.
  const boundOf = (l: string) => `(${l}.factor * ${l}.bound * ${SCALE} + 1)`;
  return `${queryTermCtes(terms)},
      ${expansion.terms ? expandedHeadsCtes(top) : plainHeadsCtes(top)},
      -- per query word: the most an unread posting of it can add (part and coverage)
      open_words AS MATERIALIZED (
        SELECT word, max(${boundOf('l')}) AS part, max(l.cov) AS cov FROM lists l WHERE l.truncated GROUP BY word
      ),
      -- the candidates seen in a selecting term's best postings, passing the filters
      seen AS MATERIALIZED (${seen}),
      -- per seen candidate and query word: the best part read. A word's part is its best form's,
      -- so what an unread posting can add to a word is at most the word's open part beyond it
      seen_words AS MATERIALIZED (
        SELECT h.offer_id AS id, h.word, max(${part('l', 'h')}) AS part, max(l.cov) AS cov
        FROM heads h JOIN lists l ON l.word = h.word AND l.term = h.term
        WHERE (h.offer_id IN (SELECT id FROM seen)) IS TRUE
        GROUP BY h.offer_id, h.word
      ),
      bounded AS MATERIALIZED (
        SELECT s.id, ${scoreOf('sum(s.part)', 'sum(s.cov)')} AS low,
          ${scoreOf(
            '(SELECT coalesce(sum(part), 0) FROM open_words) + sum(greatest(s.part - coalesce(o.part, 0), 0))',
            '(SELECT coalesce(sum(cov), 0) FROM open_words) + sum(greatest(s.cov - coalesce(o.cov, 0), 0))',
          )} AS high
        FROM seen_words s LEFT JOIN open_words o ON o.word = s.word
        GROUP BY s.id
      ),
      -- the wanted-th best lower bound: a candidate whose upper bound is below it cannot be among the wanted
      threshold AS MATERIALIZED (
        SELECT coalesce((SELECT low FROM bounded ORDER BY low DESC LIMIT 1 OFFSET ${wanted} - 1), '-Infinity'::float8) AS low
      ),
      -- the candidates that can still be among the wanted and hold unread postings
      need AS MATERIALIZED (
        SELECT id FROM bounded WHERE high > low AND high * ${1 + SLACK} >= (SELECT low FROM threshold)
      ),
      -- their unread parts: a few candidates by offer (search_postings_offer_idx), many by reading
      -- the unread lists whole (index-only scans) against them, whichever reads fewer postings
      by_offer AS MATERIALIZED (
        SELECT (SELECT count(*) FROM need) * ${POSTINGS_PER_OFFER_PROBE}
          < (SELECT coalesce(sum(documents), 0) FROM reads WHERE documents > reads) AS yes
      ),
      unread_parts AS MATERIALIZED (
        SELECT p.offer_id AS id, l.word, ${part('l', 'p')} AS part, l.cov
        FROM need n CROSS JOIN LATERAL (
          SELECT p.term, p.impact, p.offer_id FROM search_postings p
          WHERE p.offer_id = n.id AND p.term IN (SELECT term FROM lists WHERE truncated)
        ) p JOIN lists l ON l.term = p.term AND l.truncated
        WHERE (SELECT yes FROM by_offer)
        UNION ALL
        SELECT p.offer_id, l.word, ${part('l', 'p')}, l.cov
        FROM lists l CROSS JOIN LATERAL (
          -- a fence and a hashed filter, so that each list is read once by its term
          SELECT p.offer_id, p.impact FROM search_postings p
          WHERE p.term = l.term AND (p.offer_id IN (SELECT id FROM need)) IS TRUE OFFSET 0
        ) p
        WHERE l.truncated AND NOT (SELECT yes FROM by_offer)
      ),
      -- every candidate that can still be among the wanted, with its exact score
      completed AS MATERIALIZED (
        SELECT id, low AS score FROM bounded
        WHERE high <= low AND high * ${1 + SLACK} >= (SELECT low FROM threshold)
        UNION ALL
        SELECT id, ${scoreOf('sum(part)', 'sum(cov)')} FROM (
          SELECT id, word, max(part) AS part, max(cov) AS cov FROM (
            SELECT id, word, part, cov FROM seen_words WHERE (id IN (SELECT id FROM need)) IS TRUE
            UNION ALL SELECT id, word, part, cov FROM unread_parts
          ) parts GROUP BY id, word
        ) words GROUP BY id
      ),
      top_k AS MATERIALIZED (
        SELECT id, score, row_number() OVER (ORDER BY score DESC, id) AS rank
        FROM completed ORDER BY score DESC, id LIMIT ${wanted}
      ),
      -- an unseen candidate holds only postings left unread (of a selecting term at least) and
      -- postings of terms that select nothing
      unseen AS MATERIALIZED (
        SELECT CASE WHEN EXISTS (SELECT 1 FROM lists WHERE truncated AND selects)
          THEN ${scoreOf('sum(part)', 'sum(cov)')} END AS high
        FROM (
          SELECT word, max(${boundOf('l')}) AS part, max(l.cov) AS cov FROM lists l
          WHERE l.truncated OR NOT l.selects GROUP BY word
        ) w
      ),
      -- when one unread list is all an unseen candidate can hold, it scores at most what that
      -- list's last posting read scores, and on a tie its id comes after that posting's (the
      -- index reads equal impacts in id order)
      single_open AS MATERIALIZED (
        SELECT ${scoreOf(`round(l.factor * l.bound * ${SCALE})`, 'l.cov')} AS score,
          (SELECT h.offer_id FROM heads h WHERE h.word = l.word AND h.term = l.term
           ORDER BY h.impact, h.offer_id DESC LIMIT 1) AS last_id
        FROM lists l
        WHERE l.truncated AND (SELECT count(*) FROM lists WHERE truncated OR NOT selects) = 1
      ),
      top_last AS MATERIALIZED (SELECT id, score FROM top_k WHERE rank = ${wanted}),
      top_exact AS MATERIALIZED (
        SELECT (SELECT high FROM unseen) IS NULL
          OR ((SELECT count(*) FROM top_k) = ${wanted}
              AND ((SELECT score FROM top_last) > (SELECT high FROM unseen) * ${1 + SLACK}
                OR EXISTS (SELECT 1 FROM single_open o, top_last t
                           WHERE t.score > o.score OR (t.score = o.score AND t.id < o.last_id)))) AS exact
      ),
      -- the exhaustive strategy when the query's terms are held by few offers or the stopping
      -- rule cannot prove the top (computed only then)
      use_exhaustive AS MATERIALIZED (
        SELECT (SELECT yes FROM few) OR NOT (SELECT exact FROM top_exact) AS yes
      ),
      ${exhaustiveScoringCtes(and, ' AND (SELECT yes FROM use_exhaustive)')},
      text_top AS MATERIALIZED (
        SELECT id, score, rank FROM top_k WHERE NOT (SELECT yes FROM use_exhaustive)
        UNION ALL
        SELECT id, score, row_number() OVER (ORDER BY score DESC, id) FROM (
          SELECT id, score FROM scored WHERE (SELECT yes FROM use_exhaustive) ORDER BY score DESC, id LIMIT ${wanted}
        ) best
      ),
      text_matches AS MATERIALIZED (
        SELECT CASE WHEN (SELECT yes FROM use_exhaustive) THEN (SELECT count(*) FROM scored)
          ELSE (${matches}) END AS total
      ),
      terms AS MATERIALIZED (SELECT word, term, factor, cov, selects FROM qs)`;
}

/** How many postings of each term are read: a short list whole, a long one its best `depth`. */
const readsOf = (depth: string, fullRead: string) =>
  `CASE WHEN q.documents <= ${fullRead} THEN q.documents ELSE ${depth} END`;

/** Whether the query's terms hold so few postings that every candidate is scored outright. */
const fewOf = (exhaustiveMaxPostings: string) =>
  `few AS MATERIALIZED (SELECT coalesce(sum(documents), 0) <= ${exhaustiveMaxPostings} AS yes FROM qs)`;

/**
 * The best `q.reads` postings of each term of `lists` (a CTE with `word`, `term`, `reads`), by an
 * index-only scan of search_postings_term_impact_idx each; `and` narrows the scan (an impact cut).
 */
const bestPostingsOf = (lists: string, and = '') => `SELECT q.word, q.term, p.offer_id, p.impact
        FROM ${lists} q CROSS JOIN LATERAL (
          SELECT p.offer_id, p.impact FROM search_postings p WHERE p.term = q.term${and}
          ORDER BY p.impact DESC, p.offer_id LIMIT q.reads
        ) p`;

/**
 * `reads`, `few`, `heads` (each term's best postings: an index-only scan of
 * search_postings_term_impact_idx each) and `lists` (per term: whether postings are left unread,
 * and the highest impact an unread one, or any when read whole, can have) of a search that
 * expands nothing.
 */
function plainHeadsCtes({ depth, fullRead, exhaustiveMaxPostings }: TopTextParameters): string {
  return `reads AS MATERIALIZED (SELECT q.*, ${readsOf(depth, fullRead)} AS reads FROM qs q),
      ${fewOf(exhaustiveMaxPostings)},
      heads AS MATERIALIZED (
        ${bestPostingsOf('reads')}
        WHERE NOT (SELECT yes FROM few)
      ),
      lists AS MATERIALIZED (
        SELECT q.word, q.term, q.factor, q.cov, q.selects, q.documents > q.reads AS truncated,
          CASE WHEN q.documents > q.reads THEN h.lowest ELSE h.highest END AS bound
        FROM reads q LEFT JOIN (
          SELECT word, term, min(impact) AS lowest, max(impact) AS highest FROM heads GROUP BY word, term
        ) h ON h.word = q.word AND h.term = q.term
      )`;
}

/**
 * The same CTEs for a search with expanded terms: the query's own terms' best postings are read
 * first, then each expanded term's (`expansionDepth`, or whole up to `expansionFullRead`) only
 * down to where they add less than an unread posting of the word's own terms can (`cut`, an
 * impact): below it they cannot raise the word's bound, so a word's translations do not widen
 * what an unseen offer may score.
 */
function expandedHeadsCtes(top: TopTextParameters): string {
  const { depth, fullRead, exhaustiveMaxPostings } = top;
  const { expansionDepth = depth, expansionFullRead = fullRead } = top;
  return `reads AS MATERIALIZED (
        SELECT q.*, q.kind IN ('glossary', 'synonym') AS expanded,
          CASE WHEN q.kind IN ('glossary', 'synonym') THEN ${readsOf(expansionDepth, expansionFullRead)}
            ELSE ${readsOf(depth, fullRead)} END AS reads
        FROM qs q
      ),
      ${fewOf(exhaustiveMaxPostings)},
      own_heads AS MATERIALIZED (
        ${bestPostingsOf('reads')}
        WHERE NOT q.expanded AND NOT (SELECT yes FROM few)
      ),
      -- per query word: the most an unread posting of its own terms adds (none when they are read whole)
      own_open AS MATERIALIZED (
        SELECT q.word, max(q.factor * h.lowest) AS part
        FROM reads q JOIN (SELECT word, term, min(impact) AS lowest FROM own_heads GROUP BY word, term) h
          ON h.word = q.word AND h.term = q.term
        WHERE q.documents > q.reads GROUP BY q.word
      ),
      expanded_reads AS MATERIALIZED (
        SELECT q.word, q.term, q.reads, o.part / q.factor AS cut
        FROM reads q LEFT JOIN own_open o ON o.word = q.word
        WHERE q.expanded
      ),
      heads AS MATERIALIZED (
        SELECT word, term, offer_id, impact FROM own_heads
        UNION ALL
        ${bestPostingsOf('expanded_reads', ' AND (q.cut IS NULL OR p.impact >= q.cut)')}
        WHERE NOT (SELECT yes FROM few)
      ),
      -- an expanded list stopped at its cut holds no unread posting above the cut
      lists AS MATERIALIZED (
        SELECT q.word, q.term, q.factor, q.cov, q.selects, q.documents > coalesce(h.read, 0) AS truncated,
          CASE WHEN q.documents <= coalesce(h.read, 0) THEN h.highest
            WHEN coalesce(h.read, 0) < q.reads THEN e.cut
            ELSE h.lowest END AS bound
        FROM reads q LEFT JOIN (
          SELECT word, term, min(impact) AS lowest, max(impact) AS highest, count(*) AS read FROM heads GROUP BY word, term
        ) h ON h.word = q.word AND h.term = q.term
        LEFT JOIN expanded_reads e ON e.word = q.word AND e.term = q.term
      )`;
}

/**
 * The text score of the offer `id` (a column reference; 0 unless the query selects it) and whether the query selects it, from its
 * postings by search_postings_offer_idx (for offers outside `text_top`), as the exhaustive strategy
 * scores it; `terms` names a CTE of the query terms (word, term, factor, cov, selects). Columns:
 * `matches`, `score`.
 */
export function textScoreOf(id: string, terms = 'terms'): string {
  return `(
    SELECT coalesce(bool_or(w.selects), false) AS matches,
      CASE WHEN bool_or(w.selects) THEN ${scoreOf('sum(w.part)', 'sum(w.cov)')} ELSE 0 END::float8 AS score
    FROM (
      SELECT t.word, bool_or(t.selects) AS selects, max(${part('t', 'p')}) AS part, max(t.cov) AS cov
      FROM search_postings p JOIN ${terms} t ON t.term = p.term
      WHERE p.offer_id = ${id} AND p.term IN (SELECT term FROM ${terms})
      GROUP BY t.word
    ) w
  )`;
}
