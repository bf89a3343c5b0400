import type { Sql } from '@rt/database';
import { loadSearchConfig } from '../config';
import { filterListingSql, filterPageSql } from './filter-listing';
import { hnswSessionSettingsSql } from './hnsw-session-settings';
import { pageRecordsSql } from './page-records';
import { filterRequestOf, searchRequestOf } from '../cli/query-statements';
import { semanticSideSql } from './semantic-side';
import { readQueryText } from '../query/analysis/analysed-query';

const config = loadSearchConfig({ APP_ENV: 'local', SEARCH_TOTAL_EXACT_LIMIT: '10000' });
const FILTERS = {
  destination: 'gr',
  category: 'beach,wellness',
  dates: '2027-03-01_2027-03-31',
  hide_invalid: 'true',
  discountclub: 'false',
  seaside: 'true',
};

/** The placeholders a statement's text holds, in number order, each once. */
const placeholders = (sql: Sql) =>
  [...new Set([...sql.text.matchAll(/\$(\d+)/g)].map((match) => Number(match[1])))].sort((a, b) => a - b);

describe('the search statements (sql/)', () => {
  const filterRequests = [{}, FILTERS, { ...FILTERS, orderBy: 'rating', orderDirection: 'desc' }].map(
    (query) => filterRequestOf(query, config),
  );
  const searchRequests = [
    { search: 'santorini' },
    { search: 'santorini', ...FILTERS },
    { search: 'santorini', ...FILTERS, rrfVectorWeight: '0' },
  ].map((query) => searchRequestOf(query, config));
  const statements: Sql[] = [
    ...filterRequests.flatMap((request) => [filterListingSql(request), filterPageSql(request)]),
    ...searchRequests.flatMap((request) => [
      semanticSideSql(request, readQueryText(request.search), '[1,0]', ['TRV-000001']),
      pageRecordsSql(request, ['TRV-000001']),
      pageRecordsSql(request, ['TRV-000001'], '[1,0]'),
    ]),
    hnswSessionSettingsSql({ efSearch: 100, iterativeScan: 'relaxed_order', maxScanTuples: 5000 })!,
  ];

  it('reference every value they carry, numbered from $1 without a gap', () => {
    for (const sql of statements) {
      expect(placeholders(sql)).toEqual(sql.values.map((_, i) => i + 1));
    }
  });

  it('read the filters once in a filtered semantic side, and not at all when it is empty', () => {
    const [, filtered, empty] = searchRequests;
    const values = semanticSideSql(filtered, readQueryText(filtered.search), '[1,0]', []).values;
    expect(values.filter((value) => value === 'GR')).toHaveLength(1);
    expect(semanticSideSql(empty, readQueryText(empty.search), '[1,0]', []).values).not.toContain('GR');
  });
});
