import { Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { SEARCH_READER } from '../database/database-runtime';
import { splitPage } from '@rt/database';
import type { Sql } from '@rt/database';
import type { FacetCounts, FacetField } from '../request/listing-facets';
import type { FilterRequest } from '../request/listing-request';
import { filterListingSql } from '../sql/filter-listing';
import type { ListingResult, ListingRow } from './listing-row';
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
    type Row = Omit<ListingRow, 'id'> & { id: string | null; total: number } & Partial<FacetColumns>;
    const sql = filterListingSql(request);
    const rows = (await this.dataSource.query(sql.text, sql.values)) as Row[];
    const { items, total } = splitPage(
      rows,
      ({ total: _total, facets: _f, unknown_category: _c, unknown_destination: _d, ...row }) =>
        row as ListingRow,
    );
    if (!request.facets) return { total, rows: items };
    return { total, rows: items, facets: facetCountsOf(rows[0] as FacetColumns, total, request) };
  }

  /** The rows of a statement, on any connection of the pool. */
  readonly rowsOf: RunSql = async (sql: Sql) =>
    (await this.dataSource.query(sql.text, sql.values)) as Record<string, unknown>[];
}

/** The facet columns of a filter-only listing with facets (sql/filter-listing.ts), on every row. */
interface FacetColumns {
  facets: Partial<Record<FacetField, Record<string, number>>>;
  unknown_category: string[];
  unknown_destination: string[];
}

/** The facets of a filter-only listing as its statement counted them (D-81). */
function facetCountsOf(columns: FacetColumns, total: number, request: FilterRequest): FacetCounts {
  const counts: FacetCounts['counts'] = {};
  for (const [field, values] of Object.entries(columns.facets) as [FacetField, Record<string, number>][]) {
    counts[field] = new Map(Object.entries(values));
  }
  // the count reached one past the bound: the facets counted the bound's first offers (id order)
  const bounded = request.countLimit !== undefined && total >= request.countLimit;
  return {
    counts,
    relation: bounded ? 'gte' : 'eq',
    unknownFilterValues: { category: columns.unknown_category, destination: columns.unknown_destination },
  };
}
