import { plainToInstance } from 'class-transformer';
import { loadSearchConfig } from '../config';
import type { QueryExpansion } from '../glossary/query-expander';
import { TravelsQueryDto } from './dto/travels-query.dto';
import { hybridListingSql } from './hybrid-listing.sql';
import { textListingSql } from './travel-listing.sql';
import type { Sql } from './travel-listing.sql';
import { toTravelsRequest } from './travels-request';
import type { RankingRequest } from './travels-request';

const HIKE: QueryExpansion = {
  knownWords: ['wandern'],
  terms: [{ token: 'wandern', term: 'randonnee', kind: 'glossary' }],
};

function requestOf(expansion: QueryExpansion, env: Record<string, string> = {}): RankingRequest {
  const query = plainToInstance(TravelsQueryDto, { search: 'Wandern', destination: 'CH' });
  const request = toTravelsRequest(query, loadSearchConfig(env), () => expansion);
  if (request.branch !== 'search') throw new Error('a search');
  return request;
}

const statements = (request: RankingRequest): Sql[] => [
  textListingSql(request, 'top'),
  textListingSql(request, 'exhaustive'),
  hybridListingSql(request, '[1,0]', 'top'),
  hybridListingSql(request, '[1,0]', 'exhaustive'),
];

/** Every parameter given is used, and none used is missing (PostgreSQL refuses either). */
function expectParametersMatch({ text, values }: Sql): void {
  const used = new Set([...text.matchAll(/\$(\d+)/g)].map((match) => Number(match[1])));
  expect([...used].sort((a, b) => a - b)).toEqual(values.map((_, i) => i + 1));
}

describe('the text side of a search that expands nothing, and of one that does', () => {
  it('runs the statement without expansion when nothing is expanded (no cost: README, "Query expansion")', () => {
    for (const statement of statements(requestOf({ knownWords: [], terms: [] }))) {
      expect(statement.text).toContain('travel_query_terms($1, 16)');
      expect(statement.text).not.toMatch(/own_heads|expanded_reads|PARTITION BY t\.word/);
      expectParametersMatch(statement);
    }
  });

  it('runs it too when the glossary and synonyms weigh 0, whatever the expander found', () => {
    const request = requestOf(HIKE, { SEARCH_GLOSSARY_WEIGHT: '0', SEARCH_SYNONYM_WEIGHT: '0' });
    for (const statement of statements(request)) {
      expect(statement.text).toContain('travel_query_terms($1, 16)');
      expectParametersMatch(statement);
    }
  });

  it('gives the expanded terms to the second travel_query_terms, and reads their lists after the own terms’', () => {
    const [top, exhaustive] = statements(requestOf(HIKE));
    expect(top.text).toMatch(/travel_query_terms\(\$1, 16, \$\d+::text\[\], .*, 12\)/);
    expect(top.text).toContain('own_heads');
    expect(exhaustive.text).not.toContain('own_heads');
    for (const statement of statements(requestOf(HIKE))) {
      expect(statement.text).toContain('PARTITION BY t.word');
      expectParametersMatch(statement);
    }
  });
});
