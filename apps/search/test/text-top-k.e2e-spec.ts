import { plainToInstance } from 'class-transformer';
import { BuiltinEmbeddingProvider } from '../src/embedding/builtin-embedding.provider';
import { toVectorLiteral } from '../src/embedding/embedding-provider';
import { QueryExpansionService } from '../src/glossary/query-expansion.service';
import { TravelsQueryDto } from '../src/travels/dto/travels-query.dto';
import { hybridListingSql } from '../src/travels/hybrid-listing.sql';
import { TEXT_READS } from '../src/travels/text-side.sql';
import type { TextReads } from '../src/travels/text-side.sql';
import { textListingSql } from '../src/travels/travel-listing.sql';
import { toTravelsRequest } from '../src/travels/travels-request';
import type { RankingRequest } from '../src/travels/travels-request';
import { catalogueFolder, makeOffer, toNdjson } from './catalogue-fixtures';
import { createTestApp, expectAnswersAlike, TestApp } from './test-app';

/**
 * The top-k text side's stopping rule (issue 24): whenever it says its page is exact, the page,
 * the scores and the total are those of the exhaustive scoring, on a generated catalogue where
 * frequent words' postings are left unread, with ties (offers of identical text) and filters.
 */
const TIED = Array.from({ length: 30 }, (_, i) =>
  makeOffer(`TIE-${String(i).padStart(2, '0')}`, {
    name: 'Lakeside hiking week',
    description: 'Walks along the lake, every day another shore.',
    destination: { code: 'CH', name: 'Switzerland' },
    categories: [{ slug: 'hiking', name: 'Hiking' }],
    language: 'en',
  }),
);

const SEARCHES = [
  'ski',
  'hiking',
  'Lakeside hiking',
  'lake',
  'beach Naxos',
  'Wanderung am See',
  'hiking the alps with family',
  'croisiere sur le lac avec degustation de vin',
  'a relaxing weekend with wellness and good food in the mountains',
  'Santorni',
  'Zermatt',
];
const VARIANTS: Record<string, string>[] = [
  {},
  { page: '2' },
  { rrfVectorWeight: '0' },
  { rrfVectorWeight: '0.5' },
  { destination: 'CH' },
  { category: 'hiking' },
  { hide_invalid: 'true', seaside: 'false' },
];

describe('top-k text side (issue 24)', () => {
  let t: TestApp;
  let cleanup: () => Promise<void>;
  let tiedSource: string;
  const builtin = new BuiltinEmbeddingProvider(384);

  beforeAll(async () => {
    const folder = await catalogueFolder();
    cleanup = folder.cleanup;
    tiedSource = await folder.file('tied.ndjson', toNdjson(TIED));
    // A small candidate count, so that the text side needs only a few best records and reads
    // few postings of the frequent words.
    t = await createTestApp({
      env: {
        CATALOGUE_SOURCE: 'generated:1500',
        SEARCH_SEMANTIC_CANDIDATES: '10',
        SEARCH_TEXT_STRATEGY: 'exhaustive',
      },
    });
    await t.reindex.idle();
    expect(await t.reindex.run('cli')).toMatchObject({ status: 'succeeded', total: 1500 });
  }, 180_000);
  afterAll(async () => {
    await t?.close();
    await cleanup?.();
  });

  const requestOf = (query: Record<string, string>): RankingRequest => {
    // with the glossary's expansions, as the service builds its requests (issue 26)
    const expansions = t.app.get(QueryExpansionService);
    const request = toTravelsRequest(
      plainToInstance(TravelsQueryDto, { infoDensity: 'min', size: '8', ...query }),
      t.config,
      (search) => expansions.expand(search),
    );
    if (request.branch !== 'search') throw new Error('a search was expected');
    return request;
  };
  const run = async (sql: { text: string; values: unknown[] }) =>
    (await t.dataSource.query(sql.text, sql.values)) as Record<string, unknown>[];
  const withoutFlags = (rows: Record<string, unknown>[]) =>
    rows.map(({ exact: _exact, text_exhaustive: _exhaustive, ...row }) => row);

  // The service's reads (on 1,500 offers most queries are then scored exhaustively), and reads
  // so short, with no exhaustive shortcut, that the stopping rule itself decides, both ways.
  const READS: [string, TextReads][] = [
    ['default reads', TEXT_READS],
    [
      'short reads',
      { exhaustiveMaxPostings: 0, fullRead: 30, minDepth: 20, depthPerWanted: 2, expansionShare: 0.5 },
    ],
  ];

  it.each(READS)(
    'gives the exhaustive page, scores and total, whichever text side it takes (%s)',
    async (label, reads) => {
      const outcomes = { proven: 0, declined: 0, pageUnproven: 0 };
      for (const search of SEARCHES) {
        for (const variant of VARIANTS) {
          const request = requestOf({ search, ...variant });
          const embedding = toVectorLiteral(await builtin.embedQuery(request.search));
          const terms = await t.termsOf(request);
          const top = await run(hybridListingSql(request, terms, embedding, 'top', reads));
          const exhaustive = await run(hybridListingSql(request, terms, embedding, 'exhaustive'));
          const textTop = await run(textListingSql(request, terms, 'top', reads));
          const textExhaustive = await run(textListingSql(request, terms, 'exhaustive'));
          for (const [statement, fast, slow] of [
            ['hybrid', top, exhaustive],
            ['text', textTop, textExhaustive],
          ] as const) {
            if (fast[0].text_exhaustive === true) outcomes.declined++;
            else outcomes.proven++;
            // The hybrid page's own check (RRF past the text side's best) may still decline: the
            // service then runs the exhaustive statement.
            if (fast[0].exact !== true) {
              outcomes.pageUnproven++;
              continue;
            }
            expect({ search, variant, statement, rows: withoutFlags(fast) }).toEqual({
              search,
              variant,
              statement,
              rows: withoutFlags(slow),
            });
          }
        }
      }
      // Not vacuous: with short reads the stopping rule proves some text sides and declines others.
      if (reads !== TEXT_READS) {
        expect({ label, proven: outcomes.proven > 0, declined: outcomes.declined > 0 }).toEqual({
          label,
          proven: true,
          declined: true,
        });
      }
      expect(outcomes.pageUnproven).toBeLessThan((outcomes.proven + outcomes.declined) / 4);
    },
    180_000,
  );

  it('breaks ties on id as the exhaustive scoring does (offers of one text)', async () => {
    // The tied offers, on their own catalogue: 30 offers of one text, so the page's last score
    // ties with offers left unread.
    const tied = await createTestApp({
      env: { CATALOGUE_SOURCE: tiedSource, SEARCH_SEMANTIC_CANDIDATES: '5' },
    });
    try {
      await tied.reindex.idle();
      expect(await tied.reindex.run('cli')).toMatchObject({ status: 'succeeded', total: TIED.length });
      for (const page of ['1', '2', '4']) {
        const request = toTravelsRequest(
          plainToInstance(TravelsQueryDto, {
            search: 'lakeside hiking',
            infoDensity: 'min',
            size: '8',
            page,
            rrfVectorWeight: '0',
          }),
          tied.config,
        ) as RankingRequest;
        const terms = await tied.termsOf(request);
        const top = (await tied.dataSource.query(
          textListingSql(request, terms, 'top').text,
          textListingSql(request, terms, 'top').values,
        )) as Record<string, unknown>[];
        const exhaustive = (await tied.dataSource.query(
          textListingSql(request, terms, 'exhaustive').text,
          textListingSql(request, terms, 'exhaustive').values,
        )) as Record<string, unknown>[];
        // Every offer scores the same: the exhaustive page is the ids in order.
        const ids = exhaustive.map((row) => row.id);
        expect(ids).toEqual([...ids].sort());
        expect(exhaustive[0].total).toBe(30);
        if (top[0].exact === true) expect(withoutFlags(top)).toEqual(withoutFlags(exhaustive));
      }
    } finally {
      await tied.close();
    }
  }, 180_000);

  it('answers through the service as the exhaustive strategy does', async () => {
    const top = await createTestApp({
      database: t.database,
      env: { SEARCH_TEXT_STRATEGY: 'top', SEARCH_SEMANTIC_CANDIDATES: '10' },
    });
    try {
      const queries = SEARCHES.slice(0, 6).flatMap((search) =>
        VARIANTS.slice(0, 5).map((variant) => ({ search, infoDensity: 'card', size: '8', ...variant })),
      );
      await expectAnswersAlike(top, t, queries);
    } finally {
      await top.close();
    }
  }, 180_000);
});
