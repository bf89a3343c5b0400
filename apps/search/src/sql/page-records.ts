import type { Sql } from '@rt/database';
import type { RankingRequest } from '../request/listing-request';
import { DENSITY_COLUMNS, GENERATION_COLUMN } from './offer-columns';
import { SqlParams } from './sql-params';

/**
 * The records of a ranked page (by id, in no order: listing-page.ts puts them in page order), at
 * the request's density, with their semantic similarity when an embedding is given (pgvector's
 * text form), and the index's generation; one row with null columns when `ids` is empty. Reads by
 * primary key.
 */
export function pageRecordsSql(request: RankingRequest, ids: string[], embedding?: string): Sql {
  const params = new SqlParams();
  const pageIds = params.add(ids, 'text[]');
  const similarity =
    embedding === undefined
      ? ''
      : `1 - (o.embedding <=> ${params.add(embedding, 'vector')}) AS semantic_score, `;
  return params.sql(`SELECT ${GENERATION_COLUMN}, p.* FROM (SELECT 1) one LEFT JOIN LATERAL (
        SELECT ${similarity}${DENSITY_COLUMNS[request.density]} FROM travel_offers o WHERE o.id = ANY(${pageIds})
      ) p ON true`);
}
