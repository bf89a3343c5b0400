import { plainToInstance } from 'class-transformer';
import { BuiltinEmbeddingProvider } from '../src/embedding/builtin-embedding.provider';
import { toVectorLiteral } from '../src/embedding/embedding-provider';
import { TravelsQueryDto } from '../src/travels/dto/travels-query.dto';
import { hybridListingSql } from '../src/travels/hybrid-listing.sql';
import { TEXT_READS } from '../src/travels/text-side.sql';
import type { TextReads } from '../src/travels/text-side.sql';
import { textListingSql } from '../src/travels/travel-listing.sql';
import { toTravelsRequest } from '../src/travels/travels-request';
import type { RankingRequest } from '../src/travels/travels-request';
import { catalogueFolder, makeOffer, toNdjson } from './catalogue-fixtures';
import { createTestApp, TestApp } from './test-app';

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
      env: { CATALOGUE_SOURCE: 'generated:1500', SEARCH_SEMANTIC_CANDIDATES: '10' },
    });
    await t.reindex.idle();
    expect(await t.reindex.run('cli')).toMatchObject({ status: 'succeeded', total: 1500 });
  }, 180_000);
  afterAll(async () => {
    await t?.close();
    await cleanup?.();
  });

  const requestOf = (query: Record<string, string>): RankingRequest => {
    const request = toTravelsRequest(
      plainToInstance(TravelsQueryDto, { infoDensity: 'min', size: '8', ...query }),
      t.config,
    );
    if (request.branch !== 'search') throw new Error('a search was expected');
    return request;
  };
  const run = async (sql: { text: string; values: unknown[] }) =>
    (await t.dataSource.query(sql.text, sql.values)) as Record<string, unknown>[];
  const withoutFlag = (rows: Record<string, unknown>[]) => rows.map(({ exact: _exact, ...row }) => row);

  // The service's reads, and reads so short that most lists are left unread: the stopping rule
  // itself decides, with both outcomes.
  const READS: [string, TextReads][] = [
    ['default reads', TEXT_READS],
    ['short reads', { fullRead: 30, minDepth: 20, depthPerWanted: 2 }],
  ];

  it.each(READS)(
    'gives the exhaustive page, scores and total whenever it proves its page exact (%s)',
    async (label, reads) => {
      let exact = 0;
      let compared = 0;
      for (const search of SEARCHES) {
        for (const variant of VARIANTS) {
          const request = requestOf({ search, ...variant });
          const embedding = toVectorLiteral(await builtin.embedQuery(request.search));
          const top = await run(hybridListingSql(request, embedding, 'top', reads));
          const exhaustive = await run(hybridListingSql(request, embedding, 'exhaustive'));
          const textTop = await run(textListingSql(request, 'top', reads));
          const textExhaustive = await run(textListingSql(request, 'exhaustive'));
          for (const [statement, fast, slow] of [
            ['hybrid', top, exhaustive],
            ['text', textTop, textExhaustive],
          ] as const) {
            compared++;
            if (fast[0].exact !== true) continue;
            exact++;
            expect({ search, variant, statement, rows: withoutFlag(fast) }).toEqual({
              search,
              variant,
              statement,
              rows: withoutFlag(slow),
            });
          }
        }
      }
      // Not vacuous: the rule proves many pages, and with short reads it also declines some.
      expect({ label, proven: exact > compared / 3 }).toEqual({ label, proven: true });
      if (reads !== TEXT_READS) expect(exact).toBeLessThan(compared);
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
        const top = (await tied.dataSource.query(
          textListingSql(request, 'top').text,
          textListingSql(request, 'top').values,
        )) as Record<string, unknown>[];
        const exhaustive = (await tied.dataSource.query(
          textListingSql(request, 'exhaustive').text,
          textListingSql(request, 'exhaustive').values,
        )) as Record<string, unknown>[];
        // Every offer scores the same: the exhaustive page is the ids in order.
        const ids = exhaustive.map((row) => row.id);
        expect(ids).toEqual([...ids].sort());
        expect(exhaustive[0].total).toBe(30);
        if (top[0].exact === true) expect(withoutFlag(top)).toEqual(withoutFlag(exhaustive));
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
      for (const search of SEARCHES.slice(0, 6)) {
        for (const variant of VARIANTS.slice(0, 5)) {
          const query = { search, infoDensity: 'card', size: '8', ...variant };
          const [fast, slow] = await Promise.all([
            top.http.get('/travels').query(query),
            t.http.get('/travels').query(query),
          ]);
          expect(fast.status).toBe(200);
          expect({ query, body: fast.body }).toEqual({ query, body: slow.body });
        }
      }
    } finally {
      await top.close();
    }
  }, 180_000);
});
