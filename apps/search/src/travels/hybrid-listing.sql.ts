import type { RankingRequest } from './travels-request';
import { COLUMNS, filterClauses, Sql } from './travel-listing.sql';
import type { QueryTerm } from '../text-index/query-terms';
import {
  queryTermsSource,
  textScoreOf,
  textExpansionOf,
  textSideCtes,
  topTextParameters,
  topTextSideCtes,
} from './text-side.sql';
import type { SqlTextStrategy, TextReads } from './text-side.sql';

/** How many lexemes closest in spelling to each search word are looked up. */
export const SPELLING_NEIGHBOURS_PER_WORD = 3;
/**
 * How many distinct words of a search (in lexeme order) get spelling neighbours: a bound on the
 * offers a long search can add (at most 8 × 3 × SEARCH_SPELLING_NEIGHBOUR_MAX_DOCUMENTS).
 */
export const SPELLING_NEIGHBOUR_WORDS = 8;

/** pgvector settings of the hybrid searches (configuration: SEARCH_HNSW_*). */
export interface HnswSettings {
  efSearch?: number;
  iterativeScan?: 'off' | 'relaxed_order' | 'strict_order';
  maxScanTuples?: number;
}

/**
 * `SELECT set_config(name, value, false) …`: the settings for the session of one connection, in one
 * statement, given once per connection (TravelsRepository), so that a search is one statement and
 * not a transaction of four. They only steer HNSW index scans, which nothing but the hybrid search
 * runs; the embedded database's one shared session gets them the same way. Only the settings the
 * server's pgvector has are given (see TravelsRepository.hnswSettings).
 */
export function hnswSettingsSql(settings: HnswSettings): Sql | undefined {
  const pairs: [string, string][] = [];
  if (settings.efSearch !== undefined) pairs.push(['hnsw.ef_search', String(settings.efSearch)]);
  if (settings.iterativeScan !== undefined) pairs.push(['hnsw.iterative_scan', settings.iterativeScan]);
  if (settings.maxScanTuples !== undefined)
    pairs.push(['hnsw.max_scan_tuples', String(settings.maxScanTuples)]);
  if (!pairs.length) return undefined;
  return {
    text: `SELECT ${pairs.map((_, i) => `set_config($${2 * i + 1}, $${2 * i + 2}, false)`).join(', ')}`,
    values: pairs.flat(),
  };
}

/** The placeholders of the semantic side's values in a statement (`$n`). */
export interface SemanticPlaceholders {
  search: string;
  embedding: string;
  floor: string;
  candidates: string;
  spellingMax: string;
}

/**
 * The semantic side's CTEs (without `WITH`; hybridListingSql documents them): `match_distances`
 * (`matchDistances`: the exact distances of the text side's best records), `nearest`, `spelt` and
 * `sem (id, rank)`. `where`/`and` hold the filter conditions on `o`; a statement using them has a
 * CTE `q` of the search's tsquery.
 */
export function semanticSideCtes(
  tuning: RankingRequest['tuning'],
  where: string,
  and: string,
  matchDistances: string,
  p: SemanticPlaceholders,
): string {
  const nearest =
    tuning.rrfVectorWeight > 0
      ? `SELECT o.id, o.embedding <=> ${p.embedding}::vector AS distance FROM travel_offers o ${where}
         ORDER BY o.embedding <=> ${p.embedding}::vector LIMIT ${p.candidates}`
      : `SELECT NULL::text COLLATE "C" AS id, NULL::float8 AS distance WHERE false LIMIT ${p.candidates}`;
  // The offers holding the rarer lexemes spelt like the search's words ("santorni" → "santorini",
  // "naxos" of "beach naxos" when no offer holds both words): the neighbours an approximate index
  // misses most, for a lexical embedding, and the text side cannot see. Only alphanumeric lexemes
  // make the tsquery (no quoting to go wrong).
  const spellingNeighbours =
    tuning.rrfVectorWeight > 0 && tuning.spellingNeighbourMaxDocuments > 0
      ? `SELECT o.id, o.embedding <=> ${p.embedding}::vector AS distance FROM travel_offers o
         WHERE o.search_vector @@ (
           SELECT string_agg(DISTINCT quote_literal(n.term), ' | ')::tsquery
           FROM q, (
             SELECT word FROM unnest(tsvector_to_array(to_tsvector('travel_search', ${p.search}))) AS words(word)
             LIMIT ${SPELLING_NEIGHBOUR_WORDS}
           ) w
           CROSS JOIN LATERAL (
             SELECT s.term FROM search_terms s
             WHERE s.term % w.word AND strpos(s.term, ' ') = 0 AND s.documents <= ${p.spellingMax}::int
               AND s.term ~ '^[[:alnum:]]+$'
               -- a one-word search's own word adds only what the text side already holds
               AND (s.term <> w.word OR numnode(q.query) > 1)
             ORDER BY similarity(s.term, w.word) DESC, s.term
             LIMIT ${SPELLING_NEIGHBOURS_PER_WORD}
           ) n
         )${and}`
      : `SELECT NULL::text COLLATE "C" AS id, NULL::float8 AS distance WHERE ${p.spellingMax}::int < 0`;
  return `match_distances AS MATERIALIZED (${matchDistances}),
      nearest AS MATERIALIZED (${nearest}),
      spelt AS MATERIALIZED (${spellingNeighbours}),
      sem AS MATERIALIZED (
        SELECT id, row_number() OVER (ORDER BY distance, id) AS rank FROM (
          SELECT id, min(distance) AS distance FROM (
            SELECT id, distance FROM nearest
            UNION ALL SELECT id, distance FROM spelt
            UNION ALL SELECT id, distance FROM match_distances
          ) candidates GROUP BY id
        ) semantic WHERE 1 - distance >= ${p.floor}::float8
      )`;
}

/**
 * One page of the hybrid branch and its exact total, in one statement (docs/decisions.md D-51,
 * D-52):
 *
 * - semantic side: its candidates are the `semanticCandidates` nearest records passing the filters,
 *   by cosine distance, from travel_offers_embedding_idx (HNSW, vector_cosine_ops; with pgvector
 *   ≥ 0.8 an iterative scan keeps going until enough records pass the filters; the planner may also
 *   pick the filter indexes and compute exact distances when the filters are selective), plus the
 *   `semanticCandidates` best records of the text side with their exact distances (an approximate
 *   index misses neighbours; those that share the query's words are the likeliest to be missed,
 *   above all under selective filters), plus the
 *   records passing the filters that hold a spelling neighbour of a search word (`spelt`: the
 *   SPELLING_NEIGHBOURS_PER_WORD lexemes of `search_terms` closest to it by trigram similarity and
 *   held by at most `spellingNeighbourMaxDocuments` offers); kept when
 *   `1 − distance ≥ semanticFloor`; ranked 1, 2 … by distance, then id;
 * - text side (text-side.sql.ts): records holding a query term (optional words, folded, stemmed,
 *   corrected for typos, compounds split) and passing the filters (their indexes: see
 *   filterConditions), scored by BM25 times query coverage from search_postings, kept when the
 *   score ≥ tsvectorFloor; ranked by score desc, then id;
 * - a side whose weight is 0 is empty (it could only add records scoring nothing from it);
 * - merged by FULL OUTER JOIN on id: score = w/(k + rank_semantic) + (1 − w)/(k + rank_text), a
 *   side the record is absent from adding nothing; ordered by score desc, then id.
 *
 * The semantic candidates are a MATERIALIZED CTE evaluated once per statement, and the total is
 * the count of the very union the page is cut from, so every counted record is reachable by
 * paging. Scores of a page row are its actual measures: semantic_score = 1 − cosine distance,
 * tsvector_score = the text side's score when the record matches the query, else 0 (whether or not
 * the record made its side). `embedding` is the query's embedding in pgvector's text form (toVectorLiteral).
 */
export function hybridListingSql(
  request: RankingRequest,
  queryTerms: QueryTerm[],
  embedding: string,
  strategy: SqlTextStrategy = 'exhaustive',
  reads?: TextReads,
): Sql {
  const { tuning } = request;
  const values: unknown[] = [
    request.search,
    embedding,
    tuning.rrfVectorWeight,
    tuning.semanticFloor,
    tuning.tsvectorFloor,
    tuning.k,
    tuning.semanticCandidates,
    tuning.spellingNeighbourMaxDocuments,
  ];
  const { where, and } = filterClauses(request.filters, values);
  const terms = queryTermsSource(queryTerms, values);
  const expansion = textExpansionOf(queryTerms);
  values.push(request.page.limit, request.page.offset);
  const limit = `$${values.length - 1}`;
  const offset = `$${values.length}`;
  const top =
    strategy === 'top'
      ? topTextParameters(request, queryTerms, values, tuning.semanticCandidates, reads)
      : undefined;

  // The exact distances of the best text matches (as many as the index candidates): semantic
  // candidates an approximate index may miss; none when the semantic side is empty.
  const matchDistances =
    tuning.rrfVectorWeight > 0
      ? `SELECT m.id, o.embedding <=> $2::vector AS distance
         FROM (SELECT id FROM matched ORDER BY rank LIMIT $7) m JOIN travel_offers o ON o.id = m.id`
      : `SELECT NULL::text COLLATE "C" AS id, NULL::float8 AS distance WHERE false`;
  const semanticSide = semanticSideCtes(tuning, where, and, matchDistances, {
    search: '$1',
    embedding: '$2',
    floor: '$4',
    candidates: '$7',
    spellingMax: '$8',
  });
  // Explain mode (explain.sql.ts): each page row's ranks on both sides (null: not ranked there).
  const rankColumns = request.explain ? ', s.rank AS semantic_rank, t.rank AS text_rank' : '';
  const ranks = request.explain
    ? '\n          m.semantic_rank::int AS semantic_rank, m.text_rank::int AS text_rank,'
    : '';
  const page = (merged: string, tsvectorScore: string, totals: string) => `
      SELECT c.*, p.* FROM (${totals}) c
      LEFT JOIN LATERAL (
        SELECT m.score AS _relevance_score,
          1 - (o.embedding <=> $2::vector) AS semantic_score,
          ${tsvectorScore} AS tsvector_score,${ranks}
          ${COLUMNS[request.density]}
        FROM (SELECT * FROM ${merged} ORDER BY score DESC, id LIMIT ${limit} OFFSET ${offset}) m
        JOIN travel_offers o ON o.id = m.id
        ORDER BY m.score DESC, m.id
      ) p ON true`;

  if (!top) {
    return {
      text: `WITH q AS MATERIALIZED (SELECT websearch_to_tsquery('travel_search', $1) AS query),
      ${textSideCtes(terms, and)},
      matched AS MATERIALIZED (
        SELECT id, score, row_number() OVER (ORDER BY score DESC, id) AS rank FROM scored WHERE score >= $5::float8
      ),
      ${semanticSide},
      txt AS (SELECT id, rank, score FROM matched WHERE $3::float8 < 1),
      merged AS (
        SELECT coalesce(s.id, t.id) AS id, t.score AS text_score${rankColumns},
          coalesce($3::float8 / ($6::int + s.rank), 0) + coalesce((1 - $3::float8) / ($6::int + t.rank), 0) AS score
        FROM sem s FULL OUTER JOIN txt t ON t.id = s.id
      )
      ${page(
        'merged',
        'coalesce(m.text_score, (SELECT s.score FROM scored s WHERE s.id = m.id), 0)',
        'SELECT count(*)::int AS total, true AS exact FROM merged',
      )}`,
      values,
    };
  }
  // Top-k: the text side's `wanted` best (text-side.sql.ts). A semantic candidate outside them
  // that the query selects (`tail`) has a text rank past `wanted`, unknown: it counts only its
  // semantic part here, and the page is exact when its last row beats what any such record, or a
  // text match past `wanted`, can score.
  return {
    text: `WITH q AS MATERIALIZED (SELECT websearch_to_tsquery('travel_search', $1) AS query),
      ${topTextSideCtes(terms, and, top, expansion)},
      matched AS MATERIALIZED (SELECT id, score, rank FROM text_top),
      ${semanticSide},
      -- the text side's score of the semantic candidates it does not rank: from the exhaustive
      -- scores when it has them, else from their postings
      sem_text AS MATERIALIZED (
        SELECT s.id, s.rank, x.matches, x.score FROM sem s CROSS JOIN LATERAL ${textScoreOf('s.id')} x
        WHERE NOT (SELECT yes FROM use_exhaustive) AND s.id NOT IN (SELECT id FROM matched)
        UNION ALL
        SELECT s.id, s.rank, c.id IS NOT NULL, coalesce(c.score, 0) FROM sem s LEFT JOIN scored c ON c.id = s.id
        WHERE (SELECT yes FROM use_exhaustive) AND s.id NOT IN (SELECT id FROM matched)
      ),
      txt AS (SELECT id, rank, score FROM matched WHERE $3::float8 < 1),
      merged AS MATERIALIZED (
        SELECT coalesce(s.id, t.id) AS id, coalesce(t.score, mt.score, x.score) AS text_score,
          x.matches AND $3::float8 < 1 AS tail${rankColumns},
          coalesce($3::float8 / ($6::int + s.rank), 0) + coalesce((1 - $3::float8) / ($6::int + t.rank), 0) AS score
        FROM sem s FULL OUTER JOIN txt t ON t.id = s.id LEFT JOIN sem_text x ON x.id = s.id
          LEFT JOIN matched mt ON mt.id = s.id
      ),
      beyond AS MATERIALIZED (
        -- records past the text side's wanted exist only when it holds as many (an exact text
        -- side holds every match when it holds fewer; the match count may stop at a limit)
        SELECT CASE WHEN $3::float8 < 1 AND (SELECT count(*) FROM matched) >= ${top.wanted}
          THEN (1 - $3::float8) / ($6::int + ${top.wanted} + 1)
            + coalesce((SELECT max($3::float8 / ($6::int + rank)) FROM sem_text WHERE matches), 0)
          END AS high
      ),
      page_known AS MATERIALIZED (SELECT score FROM merged WHERE NOT coalesce(tail, false) ORDER BY score DESC, id LIMIT ${limit}::int + ${offset}::int)
      ${page(
        'merged',
        'coalesce(m.text_score, 0)',
        `SELECT ((CASE WHEN $3::float8 < 1 THEN (SELECT total FROM text_matches) ELSE 0 END)
            + (SELECT count(*) FROM merged
               WHERE NOT coalesce(tail, false) AND ($3::float8 >= 1 OR id NOT IN (SELECT id FROM matched)))
          )::int AS total,
          (SELECT yes FROM use_exhaustive) AS text_exhaustive,
          $5::float8 <= 0 AND ((SELECT high FROM beyond) IS NULL OR (
            (SELECT count(*) FROM page_known) = ${limit}::int + ${offset}::int AND (SELECT min(score) FROM page_known) > (SELECT high FROM beyond) * (1 + 1e-9)
          )) AS exact`,
      )}`,
    values,
  };
}
