import { COLUMNS, filterClauses } from './travel-listing.sql';
import type { Sql } from './travel-listing.sql';
import type { RankingRequest } from './travels-request';

// The statements of a search, whose text side is scored in the in-memory text index
// (memory-listing.ts): the pgvector session settings, the semantic side, and the page's records.
// The last two also read the index's generation (`search_stats.generation`), so that a search
// knows whether the database holds the catalogue its in-memory index was loaded from.

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
 * The semantic side's CTEs (without `WITH`), docs/decisions.md D-51:
 * - `nearest`: the `semanticCandidates` nearest records passing the filters, by cosine distance,
 *   from travel_offers_embedding_idx (HNSW, vector_cosine_ops; with pgvector ≥ 0.8 an iterative
 *   scan keeps going until enough records pass the filters; the planner may also pick the filter
 *   indexes and compute exact distances when the filters are selective);
 * - `match_distances` (`matchDistances`): the exact distances of the text side's best records (an
 *   approximate index misses neighbours; those that share the query's words are the likeliest to be
 *   missed, above all under selective filters);
 * - `spelt`: the records passing the filters that hold a spelling neighbour of a search word (the
 *   SPELLING_NEIGHBOURS_PER_WORD lexemes of `search_terms` closest to it by trigram similarity and
 *   held by at most `spellingNeighbourMaxDocuments` offers);
 * - `sem (id, rank)`: their union kept when `1 − distance ≥ semanticFloor`, ranked 1, 2 … by
 *   distance, then id. A weight `w` of 0 empties the side.
 *
 * `where`/`and` hold the filter conditions on `o`; a statement using them has a CTE `q` of the
 * search's tsquery.
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

const GENERATION = '(SELECT generation::text FROM search_stats LIMIT 1) AS generation';

/**
 * The semantic side of a hybrid search (`semanticSideCtes`: the HNSW index's nearest records
 * passing the filters, the exact distances of the text side's best, `textBest`, and the spelling
 * neighbours' offers), ranked by distance then id, above the floor; one row with a null id when it
 * is empty.
 */
export function semanticSideSql(request: RankingRequest, embedding: string, textBest: string[]): Sql {
  const { tuning } = request;
  const values: unknown[] = [
    request.search,
    embedding,
    tuning.semanticFloor,
    tuning.semanticCandidates,
    tuning.spellingNeighbourMaxDocuments,
    textBest,
  ];
  const { where, and } = filterClauses(request.filters, values);
  const matchDistances = `SELECT o.id, o.embedding <=> $2::vector AS distance FROM travel_offers o WHERE o.id = ANY($6::text[])`;
  return {
    text: `WITH q AS MATERIALIZED (SELECT websearch_to_tsquery('travel_search', $1) AS query),
      ${semanticSideCtes(tuning, where, and, matchDistances, {
        search: '$1',
        embedding: '$2',
        floor: '$3',
        candidates: '$4',
        spellingMax: '$5',
      })}
      SELECT ${GENERATION}, s.id, s.rank::int AS rank FROM (SELECT 1) one LEFT JOIN sem s ON true`,
    values,
  };
}

/**
 * The records of a page (by id, in no order), at the request's density, with their semantic
 * similarity when an embedding is given; one row with null columns when `ids` is empty.
 */
export function pageRecordsSql(request: RankingRequest, ids: string[], embedding?: string): Sql {
  const values: unknown[] = [ids];
  let similarity = '';
  if (embedding !== undefined) {
    values.push(embedding);
    similarity = '1 - (o.embedding <=> $2::vector) AS semantic_score, ';
  }
  return {
    text: `SELECT ${GENERATION}, p.* FROM (SELECT 1) one LEFT JOIN LATERAL (
        SELECT ${similarity}${COLUMNS[request.density]} FROM travel_offers o WHERE o.id = ANY($1::text[])
      ) p ON true`,
    values,
  };
}
