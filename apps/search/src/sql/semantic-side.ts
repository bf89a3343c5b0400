import type { Sql } from '@rt/database';
import type { QueryText } from '../query/analysis/analysed-query';
import type { RankingRequest } from '../request/listing-request';
import { andConditions, filterConditions, whereClause } from './filter-conditions';
import { GENERATION_COLUMN } from './offer-columns';
import { SqlParams } from './sql-params';

/** How many lexemes closest in spelling to each search word are looked up. */
export const SPELLING_NEIGHBOURS_PER_WORD = 3;
/**
 * How many distinct words of a search (in lexeme order) get spelling neighbours: a bound on the
 * offers a long search can add (at most 8 × 3 × SEARCH_SPELLING_NEIGHBOUR_MAX_DOCUMENTS).
 */
export const SPELLING_NEIGHBOUR_WORDS = 8;

/** A side of no offer: the columns of one, no row. */
const NO_OFFERS = 'SELECT NULL::text COLLATE "C" AS id, NULL::float8 AS distance WHERE false';

/**
 * The semantic side of a hybrid search (docs/decisions.md D-51), given the search's embedding in
 * pgvector's text form and the text side's best ids (`textBest`, scored in memory:
 * memory-listing.ts), in CTEs, each MATERIALIZED:
 * - `search_query`: the search's tsquery;
 * - `text_best_distances`: the exact distances of the text side's best records (an approximate
 *   index misses neighbours; those that share the query's words are the likeliest to be missed,
 *   above all under selective filters);
 * - `nearest_offers`: the `semanticCandidates` nearest records passing the filters, by cosine
 *   distance, from travel_offers_embedding_idx (HNSW, vector_cosine_ops; with pgvector ≥ 0.8 an
 *   iterative scan keeps going until enough records pass the filters; the planner may also pick
 *   the filter indexes and compute exact distances when the filters are selective);
 * - `spelling_neighbours`: the records passing the filters that hold a spelling neighbour of a
 *   search word (the SPELLING_NEIGHBOURS_PER_WORD lexemes of `search_terms` closest to it by
 *   trigram similarity and held by at most `spellingNeighbourMaxDocuments` offers; 0: none);
 * - `semantic_ranks (id, rank)`: their union kept when `1 − distance ≥ semanticFloor`, ranked
 *   1, 2 … by distance, then id.
 * A weight `w` of 0 leaves the index and the spelling neighbours out. The rows: the index's
 * generation, and the ranked ids; one row with a null id when the side is empty.
 */
export function semanticSideSql(
  request: RankingRequest,
  query: Pick<QueryText, 'text'>,
  embedding: string,
  textBest: string[],
): Sql {
  const { tuning } = request;
  const params = new SqlParams();
  const search = params.add(query.text);
  const queryEmbedding = params.add(embedding, 'vector');
  const textBestIds = params.add(textBest, 'text[]');
  // the filters' values are added once, by the first side that reads them
  let conditions: string[] | undefined;
  const filters = () => (conditions ??= filterConditions(request.filters, params));

  const nearestOffers =
    tuning.rrfVectorWeight > 0
      ? `SELECT o.id, o.embedding <=> ${queryEmbedding} AS distance FROM travel_offers o ${whereClause(filters())}
         ORDER BY o.embedding <=> ${queryEmbedding} LIMIT ${params.add(tuning.semanticCandidates)}`
      : NO_OFFERS;
  // The offers holding the rarer lexemes spelt like the search's words ("santorni" → "santorini",
  // "naxos" of "beach naxos" when no offer holds both words): the neighbours an approximate index
  // misses most, for a lexical embedding, and the text side cannot see. Only alphanumeric lexemes
  // make the tsquery (no quoting to go wrong).
  const spellingNeighbours =
    tuning.rrfVectorWeight > 0 && tuning.spellingNeighbourMaxDocuments > 0
      ? `SELECT o.id, o.embedding <=> ${queryEmbedding} AS distance FROM travel_offers o
         WHERE o.search_vector @@ (
           SELECT string_agg(DISTINCT quote_literal(neighbours.term), ' | ')::tsquery
           FROM search_query, (
             SELECT word FROM unnest(tsvector_to_array(to_tsvector('travel_search', ${search}))) AS words(word)
             LIMIT ${SPELLING_NEIGHBOUR_WORDS}
           ) search_words
           CROSS JOIN LATERAL (
             SELECT s.term FROM search_terms s
             WHERE s.term % search_words.word AND strpos(s.term, ' ') = 0
               AND s.documents <= ${params.add(tuning.spellingNeighbourMaxDocuments, 'int')}
               AND s.term ~ '^[[:alnum:]]+$'
               -- a one-word search's own word adds only what the text side already holds
               AND (s.term <> search_words.word OR numnode(search_query.query) > 1)
             ORDER BY similarity(s.term, search_words.word) DESC, s.term
             LIMIT ${SPELLING_NEIGHBOURS_PER_WORD}
           ) neighbours
         )${andConditions(filters())}`
      : NO_OFFERS;
  return params.sql(`WITH search_query AS MATERIALIZED (SELECT websearch_to_tsquery('travel_search', ${search}) AS query),
      text_best_distances AS MATERIALIZED (
        SELECT o.id, o.embedding <=> ${queryEmbedding} AS distance FROM travel_offers o WHERE o.id = ANY(${textBestIds})
      ),
      nearest_offers AS MATERIALIZED (${nearestOffers}),
      spelling_neighbours AS MATERIALIZED (${spellingNeighbours}),
      semantic_ranks AS MATERIALIZED (
        SELECT id, row_number() OVER (ORDER BY distance, id) AS rank FROM (
          SELECT id, min(distance) AS distance FROM (
            SELECT id, distance FROM nearest_offers
            UNION ALL SELECT id, distance FROM spelling_neighbours
            UNION ALL SELECT id, distance FROM text_best_distances
          ) candidates GROUP BY id
        ) semantic WHERE 1 - distance >= ${params.add(tuning.semanticFloor, 'float8')}
      )
      SELECT ${GENERATION_COLUMN}, s.id, s.rank::int AS rank FROM (SELECT 1) one LEFT JOIN semantic_ranks s ON true`);
}
