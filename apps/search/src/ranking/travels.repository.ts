import { Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { SEARCH_READER } from '../database/database-runtime';
import { splitPage } from '@rt/database';
import type { Sql } from '@rt/database';
import type { FilterRequest } from '../request/listing-request';
import { filterListingSql, filterPageAtGenerationSql } from '../sql/filter-listing';
import { GENERATION_CHANGED } from './listing-row';
import type { GenerationChanged, ListingResult, ListingRow } from './listing-row';
import type { RunSql } from './listing-page';

/**
 * Reads `travel_offers` (raw SQL built in sql/: see sql/filter-conditions.ts for the indexes the
 * filters use) from the read database (DATABASE_READ_URL, else the primary): filter-only listings,
 * and the statements of a search's listing on any connection of the pool (a hybrid search's
 * semantic statement runs on a session of PgvectorSessions: HybridListing).
 */
@Injectable()
export class TravelsRepository {
  constructor(@Inject(SEARCH_READER) private readonly dataSource: DataSource) {}

  /** A filter-only page and its exact total, from one snapshot. */
  async listFiltered(request: FilterRequest): Promise<ListingResult> {
    type Row = Omit<ListingRow, 'id'> & { id: string | null; total: number };
    const sql = filterListingSql(request);
    const rows = (await this.dataSource.query(sql.text, sql.values)) as Row[];
    const { items, total } = splitPage(rows, ({ total: _total, ...row }) => row as ListingRow);
    return { total, rows: items };
  }

  /**
   * A filter-only page without its total, read from the catalogue of `generation` (D-63); else
   * GENERATION_CHANGED.
   */
  async pageAt(request: FilterRequest, generation: string): Promise<ListingRow[] | GenerationChanged> {
    const sql = filterPageAtGenerationSql(request);
    const rows = (await this.dataSource.query(sql.text, sql.values)) as (ListingRow & {
      generation: string;
    })[];
    if (rows[0]?.generation !== generation) return GENERATION_CHANGED;
    return rows.filter((row) => row.id !== null).map(({ generation: _generation, ...row }) => row);
  }

  /** The rows of a statement, on any connection of the pool. */
  readonly rowsOf: RunSql = async (sql: Sql) =>
    (await this.dataSource.query(sql.text, sql.values)) as Record<string, unknown>[];
}
