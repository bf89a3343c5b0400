import { plainToInstance } from 'class-transformer';
import { BuiltinEmbeddingProvider } from '../src/embedding/builtin-embedding.provider';
import { loadTextIndex } from '../src/indexes/text-index/text-index.loader';
import { TextIndexService } from '../src/indexes/text-index/text-index.service';
import { TravelsQueryDto } from '../src/http/travels/dto/travels-query.dto';
import { MemoryListing } from '../src/ranking/memory-listing';
import { GENERATION_CHANGED } from '../src/ranking/listing-row';
import type { GenerationChanged, ListingResult } from '../src/ranking/listing-row';
import type { RunSql } from '../src/ranking/listing-page';
import { StatementSemanticSide } from '../src/ranking/statement-semantic-side';
import { toTravelsRequest } from '../src/http/travels/travels-request';
import type { RankingRequest } from '../src/request/listing-request';
import type { CatalogueRecord } from '../src/catalogue/catalogue-record';
import { catalogueFolder, makeOffer, toNdjson } from './catalogue-fixtures';
import { referenceTextPage } from './reference-text-side';
import { createTestApp, readyAnswer, TestApp } from './test-app';

/**
 * The in-memory text index: every search it scores gives the page, scores, ranks and
 * total that the text side's definition gives, worked out in plain code from the postings the
 * database holds (reference-text-side.ts; ties, filters, pages, floors), the hybrid page is cut
 * from those text ranks, and a replica never answers from an index of another generation than the
 * database's.
 */
const SEARCHES = [
  'ski',
  'hiking',
  'lake',
  'beach Naxos',
  'Wanderung am See',
  'hiking the alps with family',
  'croisiere sur le lac avec degustation de vin',
  'a relaxing weekend with wellness and good food in the mountains',
  'Santorni',
  'Zermatt',
  'Skiferien im Wallis',
  'the',
  'xyzzyqqq',
];
const VARIANTS: Record<string, string>[] = [
  {},
  { page: '2' },
  { page: '40' },
  { rrfVectorWeight: '0' },
  { rrfVectorWeight: '0.5' },
  { rrfVectorWeight: '1' },
  { tsvectorFloor: '12' },
  { semanticFloor: '0.3' },
  { destination: 'CH' },
  { category: 'hiking' },
  { hide_invalid: 'true', seaside: 'false' },
  { dates: '2026-07-01:2026-08-31', discountclub: 'true' },
  { explain: 'true', rrfVectorWeight: '0.3' },
];

/**
 * Runs `test` on a service of its own whose catalogue source is a file of `records` (`rewrite`
 * replaces them for the next reindex), then closes the service and removes the file.
 */
async function onCatalogueFile(
  records: CatalogueRecord[],
  env: Record<string, string>,
  test: (app: TestApp, rewrite: (records: CatalogueRecord[]) => Promise<void>) => Promise<void>,
): Promise<void> {
  const folder = await catalogueFolder();
  const write = (next: CatalogueRecord[]) => folder.file('catalogue.ndjson', toNdjson(next));
  const app = await createTestApp({ env: { CATALOGUE_SOURCE: await write(records), ...env } });
  try {
    await test(app, async (next) => {
      await write(next);
    });
  } finally {
    await app.close();
    await folder.cleanup();
  }
}

describe('in-memory text index', () => {
  let t: TestApp;
  const builtin = new BuiltinEmbeddingProvider(384);

  beforeAll(async () => {
    t = await createTestApp({
      env: { CATALOGUE_SOURCE: 'generated:1500', SEARCH_SEMANTIC_CANDIDATES: '10' },
    });
    await t.reindex.idle();
    expect(await t.reindex.run('cli')).toMatchObject({ status: 'succeeded', total: 1500 });
  }, 180_000);
  afterAll(async () => {
    await t?.close();
  });

  const requestOf = (app: TestApp, query: Record<string, string>): RankingRequest => {
    const request = toTravelsRequest(
      plainToInstance(TravelsQueryDto, { infoDensity: 'min', size: '8', ...query }),
      app.config,
    );
    if (request.branch !== 'search') throw new Error('a search was expected');
    return request;
  };
  const memoryOf = (app: TestApp) => {
    const index = app.app.get(TextIndexService).current();
    if (!index) throw new Error('the text index is not loaded');
    const run: RunSql = async (sql) =>
      (await app.dataSource.query(sql.text, sql.values)) as Record<string, unknown>[];
    return { index, run, listing: new MemoryListing(index, run) };
  };
  const answered = (result: ListingResult | GenerationChanged): ListingResult => {
    if (result === GENERATION_CHANGED) throw new Error('the in-memory listing declined');
    return result;
  };
  /** A text page's ids, scores, ranks and total (what the reference gives). */
  const textPageOf = (result: ListingResult | GenerationChanged) => {
    const { total, rows } = answered(result);
    return {
      total,
      rows: rows.map((row) => ({ id: row.id, tsvector_score: row.tsvector_score, position: row.position })),
    };
  };

  it('loads the index of the database generation, and serves it once ready', async () => {
    const service = t.app.get(TextIndexService);
    await service.refresh();
    const index = service.current();
    const [stats] = (await t.dataSource.query('SELECT generation::text AS generation FROM search_stats')) as {
      generation: string;
    }[];
    expect(index?.generation).toBe(stats.generation);
    expect(index?.offers).toBe(1500);
    const [{ postings }] = (await t.dataSource.query(
      'SELECT count(*)::int AS postings FROM search_postings',
    )) as {
      postings: number;
    }[];
    expect(index?.postingCount).toBe(postings);
    const ready = await readyAnswer(t);
    expect(ready.body.details.text_index.status).toBe('up');
  });

  it("gives the definition's page, scores, ranks and total for every search, and cuts the hybrid page from them", async () => {
    const memory = memoryOf(t);
    let nonEmpty = 0;
    for (const search of SEARCHES) {
      for (const variant of VARIANTS) {
        const request = requestOf(t, { search, ...variant });
        const query = await t.analysed(request);
        const text = textPageOf(await memory.listing.byText(request, query));
        expect({ search, variant, text }).toEqual({
          search,
          variant,
          text: await referenceTextPage(t, request, query),
        });
        if (text.rows.length > 0) nonEmpty++;
        // the hybrid page's text ranks are the text side's (its fusion: hybrid-search.e2e-spec.ts)
        const embedding = await builtin.embedQuery(request.search);
        const explained = { ...request, explain: true };
        const semantic = new StatementSemanticSide(explained, query, memory.index, memory.run, embedding);
        const hybrid = answered(await memory.listing.hybrid(explained, query, semantic));
        const everyText = await referenceTextPage(
          t,
          { ...request, page: { number: 1, offset: 0, limit: 100_000 } },
          query,
        );
        const rankOf = new Map(everyText.rows.map((row) => [row.id, row.position]));
        for (const row of hybrid.rows) {
          expect({ search, variant, id: row.id, text_rank: row.text_rank }).toEqual({
            search,
            variant,
            id: row.id,
            text_rank: request.tuning.rrfVectorWeight < 1 ? (rankOf.get(row.id) ?? null) : null,
          });
        }
      }
    }
    // not vacuous: most searches find text matches
    expect(nonEmpty).toBeGreaterThan((SEARCHES.length * VARIANTS.length) / 2);
  }, 180_000);

  it('breaks ties on id (offers of one text)', async () => {
    const tiedOffers = Array.from({ length: 30 }, (_, i) =>
      makeOffer(`TIE-${String(29 - i).padStart(2, '0')}`, {
        name: 'Lakeside hiking week',
        description: 'Walks along the lake, every day another shore.',
        destination: { code: 'CH', name: 'Switzerland' },
        categories: [{ slug: 'hiking', name: 'Hiking' }],
        language: 'en',
      }),
    );
    await onCatalogueFile(tiedOffers, { SEARCH_SEMANTIC_CANDIDATES: '5' }, async (tied) => {
      await tied.reindex.idle();
      expect(await tied.reindex.run('cli')).toMatchObject({ status: 'succeeded', total: 30 });
      const memory = memoryOf(tied);
      for (const page of ['1', '2', '4']) {
        const request = requestOf(tied, { search: 'lakeside hiking', page, rrfVectorWeight: '0' });
        const query = await tied.analysed(request);
        const text = textPageOf(await memory.listing.byText(request, query));
        expect(text.total).toBe(30);
        const ids = text.rows.map((row) => row.id);
        expect(ids).toEqual([...ids].sort());
        expect(text).toEqual(await referenceTextPage(tied, request, query));
      }
    });
  }, 180_000);

  it('declines to answer from an index of another generation, and the service answers the new catalogue', async () => {
    const offers = [
      makeOffer('GEN-1', { name: 'Glacier walk in Zermatt', language: 'en' }),
      makeOffer('GEN-2', { name: 'Vineyard tour in Lavaux', language: 'en' }),
    ];
    await onCatalogueFile(offers, { SEARCH_TEXT_INDEX_POLL_MS: '0' }, async (app, rewrite) => {
      await app.reindex.idle();
      expect(await app.reindex.run('cli')).toMatchObject({ status: 'succeeded' });
      const old = await loadTextIndex(app.dataSource);
      const request = requestOf(app, { search: 'glacier', rrfVectorWeight: '0' });
      const query = await app.analysed(request);
      expect(
        answered(
          await new MemoryListing(old.index, async (sql) =>
            app.dataSource.query(sql.text, sql.values),
          ).byText(request, query),
        ).total,
      ).toBe(1);
      // a reindex on the database: the old index no longer answers, the service's new one does
      await rewrite([
        ...offers,
        makeOffer('GEN-3', { name: 'Glacier express and glacier hike', language: 'en' }),
      ]);
      expect(await app.reindex.run('cli')).toMatchObject({ status: 'succeeded' });
      const stale = new MemoryListing(old.index, async (sql) => app.dataSource.query(sql.text, sql.values));
      expect(await stale.byText(request, query)).toBe(GENERATION_CHANGED);
      expect(app.app.get(TextIndexService).current()?.generation).not.toBe(old.index.generation);
      const response = await app.http
        .get('/travels')
        .query({ search: 'glacier', infoDensity: 'min', rrfVectorWeight: '0' });
      expect(response.status).toBe(200);
      expect(response.body.records.map((row: { id: string }) => row.id).sort()).toEqual(['GEN-1', 'GEN-3']);
    });
  }, 180_000);

  it('loads the postings the reindex wrote as blocks, also after offers came and went (their ordinals moved)', async () => {
    const offer = (id: string, name: string) => makeOffer(id, { name, language: 'en' });
    const first = [
      offer('BLK-1', 'Glacier walk in Zermatt'),
      offer('BLK-3', 'Lake cruise on Lake Geneva'),
      offer('BLK-5', 'Glacier lake hike'),
    ];
    await onCatalogueFile(first, { REINDEX_MAX_REMOVAL_SHARE: '1' }, async (app, rewrite) => {
      // every term's postings as the table holds them, by the loaded index's ordinals
      const expectBlocksAsPostings = async () => {
        const { index } = await loadTextIndex(app.dataSource);
        const rows = (await app.dataSource.query(
          'SELECT term, offer_id, impact FROM search_postings ORDER BY term, offer_id',
        )) as { term: string; offer_id: string; impact: number }[];
        const expected = new Map<string, { ordinals: number[]; impacts: number[] }>();
        for (const row of rows) {
          const list = expected.get(row.term) ?? { ordinals: [], impacts: [] };
          list.ordinals.push(index.ordinalOf(row.offer_id) as number);
          list.impacts.push(Math.fround(row.impact));
          expected.set(row.term, list);
        }
        const loaded = new Map(
          [...index.postings].map(([term, list]) => [
            term,
            { ordinals: Array.from(list.ordinals), impacts: Array.from(list.impacts) },
          ]),
        );
        expect(loaded).toEqual(expected);
        expect(rows.length).toBeGreaterThan(10);
        return index;
      };
      await app.reindex.idle();
      expect(await app.reindex.run('cli')).toMatchObject({ status: 'succeeded', total: 3 });
      expect((await expectBlocksAsPostings()).ids).toEqual(['BLK-1', 'BLK-3', 'BLK-5']);
      // the first offer goes, one comes between the others: every later ordinal moves
      await rewrite([
        offer('BLK-3', 'Lake cruise on Lake Geneva'),
        offer('BLK-4', 'Glacier express and lake picnic'),
        offer('BLK-5', 'Glacier lake hike'),
      ]);
      expect(await app.reindex.run('cli')).toMatchObject({ status: 'succeeded', total: 3 });
      expect((await expectBlocksAsPostings()).ids).toEqual(['BLK-3', 'BLK-4', 'BLK-5']);
      expect((await loadTextIndex(app.dataSource)).fromBlocks).toBe(true);
      // a reindex of the release before the blocks, during a rolling release: it rewrites the
      // postings and search_stats (a new generation), never the blocks, which are then stale
      await app.dataSource.transaction(async (manager) => {
        await manager.query("DELETE FROM search_postings WHERE offer_id = 'BLK-4'");
        await manager.query(
          `WITH old AS (DELETE FROM search_stats RETURNING offers, average_length, reference_length)
           INSERT INTO search_stats (offers, average_length, reference_length)
           SELECT offers - 1, average_length, reference_length FROM old`,
        );
      });
      expect((await loadTextIndex(app.dataSource)).fromBlocks).toBe(false);
      const fromPostings = await expectBlocksAsPostings();
      expect(fromPostings.postings.get('glacier')?.ordinals).toEqual(Int32Array.from([2]));
      // the next reindex of this release that changes something writes blocks for its generation
      await rewrite([
        offer('BLK-3', 'Lake cruise on Lake Geneva'),
        offer('BLK-4', 'Glacier express and lake picnic'),
        offer('BLK-5', 'Glacier lake hike'),
        offer('BLK-6', 'Glacier flight'),
      ]);
      expect(await app.reindex.run('cli')).toMatchObject({ status: 'succeeded', total: 4 });
      expect((await loadTextIndex(app.dataSource)).fromBlocks).toBe(true);
      await expectBlocksAsPostings();
    });
  }, 180_000);

  it('loads a new generation a search meets, also when the pool has one connection (as the embedded database)', async () => {
    const app = await createTestApp({
      database: t.database,
      env: { DB_POOL_SIZE: '1', SEARCH_TEXT_INDEX_POLL_MS: '0', SEARCH_SEMANTIC_CANDIDATES: '10' },
    });
    try {
      const service = app.app.get(TextIndexService);
      const held = (await service.loaded()).generation;
      // a reindex elsewhere wrote a new generation; this replica does not poll
      await app.dataSource.query("UPDATE search_stats SET generation = nextval('search_index_generation')");
      for (const query of [{ search: 'lake' }, { search: 'lake', rrfVectorWeight: '0' }]) {
        const response = await app.http.get('/travels').query({ ...query, infoDensity: 'min' });
        expect(response.status).toBe(200);
        expect(response.body.totalRecords).toBeGreaterThan(0);
      }
      expect(service.current()?.generation).not.toBe(held);
    } finally {
      await app.close();
    }
  }, 120_000);
});
