import { plainToInstance } from 'class-transformer';
import { loadSearchConfig } from '../config';
import { queryTermsOf } from '../text-index/query-terms';
import type { AnalysedTerm } from '../text-index/query-analyser';
import type { QueryTerm } from '../text-index/query-terms';
import { TravelsQueryDto } from './dto/travels-query.dto';
import { hybridListingSql } from './hybrid-listing.sql';
import { explainTermsSql } from './explain.sql';
import { textListingSql } from './travel-listing.sql';
import type { Sql } from './travel-listing.sql';
import { toTravelsRequest } from './travels-request';
import type { RankingRequest } from './travels-request';

const WANDERN: AnalysedTerm = { word: 1, term: 'wand', documents: 120, weight: 1, kind: 'exact' };
const RANDONNEE: AnalysedTerm = {
  word: 1,
  term: 'randonne',
  documents: 300,
  weight: Math.fround(0.3),
  kind: 'glossary',
};
const PHRASE: AnalysedTerm = {
  word: 1,
  term: 'haute rout',
  documents: 12,
  weight: Math.fround(0.3),
  kind: 'glossary',
};

const request = (() => {
  const query = plainToInstance(TravelsQueryDto, { search: 'Wandern', destination: 'CH' });
  const built = toTravelsRequest(query, loadSearchConfig({}));
  if (built.branch !== 'search') throw new Error('a search');
  return built;
})();

const statements = (terms: QueryTerm[], search: RankingRequest = request): Sql[] => [
  textListingSql(search, terms, 'top'),
  textListingSql(search, terms, 'exhaustive'),
  hybridListingSql(search, terms, '[1,0]', 'top'),
  hybridListingSql(search, terms, '[1,0]', 'exhaustive'),
  explainTermsSql(search, terms, ['A']),
];

/** Every parameter given is used, and none used is missing (PostgreSQL refuses either). */
function expectParametersMatch({ text, values }: Sql): void {
  const used = new Set([...text.matchAll(/\$(\d+)/g)].map((match) => Number(match[1])));
  expect([...used].sort((a, b) => a - b)).toEqual(values.map((_, i) => i + 1));
}

describe('the SQL text side, given the analysed terms', () => {
  it('takes the terms, their factors and idf as parameters, never analysing the search itself', () => {
    const terms = queryTermsOf([WANDERN], 10_000);
    for (const statement of statements(terms)) {
      expect(statement.text).not.toContain('travel_query_terms');
      expect(statement.values).toContainEqual([terms[0].factor]);
      expect(statement.values).toContainEqual([terms[0].idf]);
      expectParametersMatch(statement);
    }
  });

  it('reads no expanded list when nothing is expanded (no cost: README, "Query expansion")', () => {
    for (const statement of statements(queryTermsOf([WANDERN], 10_000))) {
      expect(statement.text).not.toMatch(/own_heads|expanded_reads/);
    }
  });

  it("reads an expanded word's lists after its own terms' with the top-k strategy", () => {
    const [top, exhaustive, hybridTop] = statements(queryTermsOf([WANDERN, RANDONNEE], 10_000));
    expect(top.text).toContain('own_heads');
    expect(hybridTop.text).toContain('own_heads');
    expect(exhaustive.text).not.toContain('own_heads');
    for (const statement of statements(queryTermsOf([WANDERN, RANDONNEE, PHRASE], 10_000))) {
      expectParametersMatch(statement);
    }
  });

  it('counts a filtered search by its postings when an expanded phrase selects', () => {
    const [plain] = statements(queryTermsOf([WANDERN, RANDONNEE], 10_000));
    const [phrase] = statements(queryTermsOf([WANDERN, PHRASE], 10_000));
    expect(plain.text).toContain('o.search_vector @@');
    expect(phrase.text).toContain(
      'SELECT p.offer_id FROM search_postings p WHERE p.term IN (SELECT term FROM qs WHERE selects)',
    );
  });
});
