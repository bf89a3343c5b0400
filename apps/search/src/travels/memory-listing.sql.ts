import { semanticSideCtes } from './hybrid-listing.sql';
import { COLUMNS, filterClauses } from './travel-listing.sql';
import type { Sql } from './travel-listing.sql';
import type { RankingRequest } from './travels-request';

// The statements of a search scored in the in-memory text index (memory-listing.ts). Each also
// reads the index's generation (`search_stats.generation`), so that a search knows whether the
// database holds the catalogue its in-memory index was loaded from.

const GENERATION = '(SELECT generation::text FROM search_stats LIMIT 1) AS generation';

/**
 * The semantic side of a hybrid search (hybrid-listing.sql.ts, `semanticSideCtes`: the HNSW
 * index's nearest records passing the filters, the exact distances of the text side's best,
 * `textBest`, and the spelling neighbours' offers), ranked by distance then id, above the floor;
 * one row with a null id when it is empty.
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
