import { plainToInstance } from 'class-transformer';
import { FakeEmbeddingServer } from '@rt/testing';
import type { CatalogueRecord } from '../src/catalogue/catalogue-record';
import { EMBEDDING_PROVIDER, toVectorLiteral } from '../src/embedding/embedding-provider';
import type { EmbeddingProvider } from '../src/embedding/embedding-provider';
import { textQueryOf } from '../src/indexes/text-index/query-terms';
import { SearchMetrics } from '../src/metrics/search-metrics';
import { TextIndexService } from '../src/indexes/text-index/text-index.service';
import { VectorIndexService } from '../src/indexes/vector-index/vector-index.service';
import { HALF_PRECISION_COSINE_ERROR } from '../src/indexes/vector-index/half-precision-vectors';
import { toTravelsRequest } from '../src/http/travels/travels-request';
import { TravelsQueryDto } from '../src/http/travels/dto/travels-query.dto';
import { makeOffer } from './catalogue-fixtures';
import { builtinTimesThree } from './builtin-fake-vector';
import { createCatalogueTestApp, createTestApp, TestApp } from './test-app';

/** A handful of offers where the two sides disagree: exact names, a typo, words in descriptions only. */
const RECORDS: CatalogueRecord[] = [
  makeOffer('H1', {
    name: 'Zermatt ski week',
    description: 'Seven days on the slopes below the Matterhorn.',
    destination: { code: 'CH', name: 'Switzerland' },
    categories: [{ slug: 'ski', name: 'Ski' }],
  }),
  makeOffer('H2', {
    name: 'Alpine ski safari',
    description: 'From Zermatt to St. Moritz on skis.',
    destination: { code: 'CH', name: 'Switzerland' },
    categories: [{ slug: 'ski', name: 'Ski' }],
  }),
  makeOffer('H3', {
    name: 'Zermatt summer hiking',
    description: 'Trails, lakes and huts around Zermatt.',
    destination: { code: 'CH', name: 'Switzerland' },
    categories: [{ slug: 'hiking', name: 'Hiking' }],
  }),
  makeOffer('H4', {
    name: 'Zermat skiing for families',
    description: 'Ski school and snow fun for children.',
    destination: { code: 'CH', name: 'Switzerland' },
    categories: [{ slug: 'family', name: 'Family' }],
  }),
  makeOffer('H5', {
    name: 'Ski de fond dans le Jura',
    description: 'Pistes nordiques et fondues.',
    destination: { code: 'FR', name: 'France' },
    categories: [{ slug: 'ski', name: 'Ski' }],
  }),
  makeOffer('H6', {
    name: 'Beach days in Mallorca',
    description: 'Sun, sea and coves.',
    destination: { code: 'ES', name: 'Spain' },
    categories: [{ slug: 'beach', name: 'Beach' }],
  }),
  makeOffer('H7', {
    name: 'Lisbon city break',
    description: 'Trams, tiles and pastries.',
    destination: { code: 'PT', name: 'Portugal' },
    categories: [{ slug: 'culture', name: 'Culture' }],
  }),
  makeOffer('H8', {
    name: 'Matterhorn and Zermatt by train',
    description: 'The Glacier Express to Zermatt, then up to Gornergrat.',
    destination: { code: 'CH', name: 'Switzerland' },
    categories: [{ slug: 'train', name: 'Train' }],
  }),
];

interface Scored {
  id: string;
  _relevance_score: number;
  semantic_score: number;
  tsvector_score: number;
}

interface Knobs {
  w: number;
  semanticFloor: number;
  tsvectorFloor: number;
  destination?: string;
}

/** Waits until the replica holds the vectors of its text index's generation (they load just after it). */
async function vectorsLoaded(t: TestApp): Promise<void> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const text = await t.app.get(TextIndexService).loaded();
    if (t.app.get(VectorIndexService).forGeneration(text.generation)) return;
    if (Date.now() > deadline) throw new Error(`the vectors of generation ${text.generation} did not load`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

// The whole ranking, with the semantic side answered from the replica's memory and from PostgreSQL.
describe.each(['memory', 'database'] as const)(
  'GET /travels with a search (hybrid ranking, vectors in %s)',
  (mode) => {
    let t: TestApp;
    const K = 60;

    beforeAll(async () => {
      t = await createCatalogueTestApp(RECORDS, {
        SEARCH_RRF_VECTOR_WEIGHT: '0.5',
        SEARCH_SEMANTIC_FLOOR: '0.1',
        SEARCH_VECTOR_INDEX: mode,
      });
      if (mode === 'memory') await vectorsLoaded(t);
    });
    afterAll(() => t?.close());

    /**
     * The ranking worked out from docs/decisions.md D-51 alone: each record's measures read directly
     * (exact cosine similarity, the text side's score), the two sides cut by the floors and ranked,
     * then merged with w/(k + rank_semantic) + (1 − w)/(k + rank_text).
     */
    async function expected(search: string, knobs: Knobs): Promise<Scored[]> {
      const provider = t.app.get<EmbeddingProvider>(EMBEDDING_PROVIDER);
      const vector = toVectorLiteral(await provider.embedQuery(search));
      // The text side's scores and the concept weight each match covers come from the in-memory
      // text index (its scoring is tested in text-index.spec.ts and text-side.e2e-spec.ts; the text
      // side ranks by the weight covered, then the score: D-68); everything else is computed here.
      const request = toTravelsRequest(plainToInstance(TravelsQueryDto, { search }), t.config);
      if (request.branch !== 'search') throw new Error('a search was expected');
      const index = await t.app.get(TextIndexService).loaded();
      const matches = index.match(textQueryOf(await t.termsOf(request)));
      const textScores = new Map(
        Array.from(matches.ordinals, (ordinal, i) => [index.ids[ordinal], matches.scores[i]] as const),
      );
      const covered = new Map(
        Array.from(matches.ordinals, (ordinal, i) => [index.ids[ordinal], matches.covered[i]] as const),
      );
      const rows = (
        (await t.dataSource.query(
          `SELECT id, 1 - (embedding <=> $1::vector) AS similarity, destination_code AS code FROM travel_offers`,
          [vector],
        )) as { id: string; similarity: number; code: string }[]
      ).map((row) => ({ ...row, matches: textScores.has(row.id), rank: textScores.get(row.id) ?? 0 }));
      const kept = rows.filter((row) => knobs.destination === undefined || row.code === knobs.destination);
      const byId = (a: { id: string }, b: { id: string }) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
      const semantic = knobs.w > 0 ? kept.filter((row) => row.similarity >= knobs.semanticFloor) : [];
      semantic.sort((a, b) => b.similarity - a.similarity || byId(a, b));
      const text = knobs.w < 1 ? kept.filter((row) => row.matches && row.rank >= knobs.tsvectorFloor) : [];
      text.sort((a, b) => covered.get(b.id)! - covered.get(a.id)! || b.rank - a.rank || byId(a, b));
      const semanticRank = new Map(semantic.map((row, i) => [row.id, i + 1]));
      const textRank = new Map(text.map((row, i) => [row.id, i + 1]));
      const union = kept.filter((row) => semanticRank.has(row.id) || textRank.has(row.id));
      return union
        .map((row) => {
          const s = semanticRank.get(row.id);
          const r = textRank.get(row.id);
          return {
            id: row.id,
            _relevance_score:
              (s === undefined ? 0 : knobs.w / (K + s)) + (r === undefined ? 0 : (1 - knobs.w) / (K + r)),
            semantic_score: row.similarity,
            tsvector_score: row.matches ? row.rank : 0,
          };
        })
        .sort((a, b) => b._relevance_score - a._relevance_score || byId(a, b));
    }

    const search = async (query: Record<string, string | number>) => {
      const res = await t.http
        .get('/travels')
        .query({ infoDensity: 'min', size: 100, ...query })
        .expect(200);
      expect(res.headers['x-search-fallback']).toBeUndefined();
      return res.body as { totalRecords: number; totalFilteredRecords: number; records: Scored[] };
    };

    const expectRanking = (records: Scored[], wanted: Scored[]) => {
      expect(records.map((r) => r.id)).toEqual(wanted.map((r) => r.id));
      records.forEach((record, i) => {
        expect(record._relevance_score).toBeCloseTo(wanted[i]._relevance_score, 12);
        // the replica re-scores at half precision (D-75); pgvector sums in 32-bit floats
        expect(Math.abs(record.semantic_score - wanted[i].semantic_score)).toBeLessThanOrEqual(
          HALF_PRECISION_COSINE_ERROR + 1e-5,
        );
        expect(record.tsvector_score).toBeCloseTo(wanted[i].tsvector_score, 5);
      });
    };

    it('merges the two sides by weighted RRF with the configured defaults (w 0.5, k 60, floors 0.1 and 0)', async () => {
      const body = await search({ search: 'Zermatt ski' });
      const wanted = await expected('Zermatt ski', { w: 0.5, semanticFloor: 0.1, tsvectorFloor: 0 });
      expect(wanted.length).toBeGreaterThan(2);
      expect(body.totalRecords).toBe(wanted.length);
      expectRanking(body.records, wanted);
      // By hand: H1 (both words in its name) is first on one side and second on the other.
      expect(body.records[0].id).toBe('H1');
      expect(body.records[0]._relevance_score).toBe(0.5 / 61 + 0.5 / 62);
    });

    it.each([
      [0, 0.1, 0],
      [0.3, 0.1, 0],
      [1, 0.1, 0],
      [0.5, 0, 0],
      [0.5, 0.3, 0],
      [0.5, 0.1, 0.1],
      [0.7, 0.2, 0.05],
    ])(
      'rrfVectorWeight %p, semanticFloor %p, tsvectorFloor %p: ranking, scores and total as D-51 computes them',
      async (w, semanticFloor, tsvectorFloor) => {
        for (const text of ['Zermatt', 'ski', 'Zermat skiing', 'Matterhorn train']) {
          const body = await search({ search: text, rrfVectorWeight: w, semanticFloor, tsvectorFloor });
          const wanted = await expected(text, { w, semanticFloor, tsvectorFloor });
          expect(body.totalRecords).toBe(wanted.length);
          expectRanking(body.records, wanted);
        }
      },
    );

    it('weight 0 is full text alone and weight 1 the semantic side alone; every record keeps its actual measures', async () => {
      const text = await search({ search: 'Zermatt', rrfVectorWeight: 0, semanticFloor: 0 });
      expect(text.records.every((r) => r.tsvector_score > 0)).toBe(true);
      expect(text.records.map((r) => r._relevance_score)).toEqual(
        text.records.map((_, i) => 1 / (K + 1 + i)),
      );
      expect(text.records.some((r) => r.semantic_score > 0)).toBe(true);
      const vector = await search({ search: 'Zermat', rrfVectorWeight: 1, semanticFloor: 0.1 });
      expect(vector.records.length).toBeGreaterThan(0);
      expect(vector.records.every((r) => r.semantic_score >= 0.1)).toBe(true);
      expect(vector.records.map((r) => r._relevance_score)).toEqual(
        vector.records.map((_, i) => 1 / (K + 1 + i)),
      );
      const similarities = vector.records.map((r) => r.semantic_score);
      expect(similarities).toEqual([...similarities].sort((a, b) => b - a));
    });

    it('floors empty their side: nothing above both → 200 with no records', async () => {
      expect(await search({ search: 'Zermatt', semanticFloor: 1, tsvectorFloor: 1000 })).toEqual({
        totalRecords: 0,
        totalRecordsRelation: 'eq',
        totalFilteredRecords: 0,
        page: 1,
        records: [],
      });
      const textOnly = await search({ search: 'Zermatt', semanticFloor: 1 });
      expect(textOnly.records.map((r) => r._relevance_score)).toEqual(
        textOnly.records.map((_, i) => 0.5 / (K + 1 + i)),
      );
    });

    it('totalRecords is what paging reaches: consecutive pages make up the whole ranking, no repeats, no short page', async () => {
      const all = await search({ search: 'Zermatt ski', semanticFloor: 0 });
      expect(all.totalRecords).toBe(all.records.length);
      for (const size of [1, 3]) {
        const seen: string[] = [];
        for (let page = 1; page <= Math.ceil(all.totalRecords / size) + 1; page++) {
          const body = await search({ search: 'Zermatt ski', semanticFloor: 0, size, page });
          expect(body.totalRecords).toBe(all.totalRecords);
          const expectedSize = Math.max(0, Math.min(size, all.totalRecords - (page - 1) * size));
          expect(body.totalFilteredRecords).toBe(expectedSize);
          seen.push(...body.records.map((r) => r.id));
        }
        expect(seen).toEqual(all.records.map((r) => r.id));
      }
    });

    it('every filter applies to both sides', async () => {
      const body = await search({ search: 'ski', destination: 'fr', semanticFloor: 0 });
      const wanted = await expected('ski', { w: 0.5, semanticFloor: 0, tsvectorFloor: 0, destination: 'FR' });
      expect(wanted.map((r) => r.id)).toEqual(['H5']);
      expectRanking(body.records, wanted);
      const beach = await search({ search: 'Zermatt', category: 'beach', semanticFloor: 0 });
      expect(beach.records.every((r) => r.id === 'H6')).toBe(true);
      const combined = await search({ search: 'Zermatt ski', category: 'ski,family', hide_invalid: 'true' });
      expect(combined.records.map((r) => r.id).sort()).toEqual(
        (await expected('Zermatt ski', { w: 0.5, semanticFloor: 0.1, tsvectorFloor: 0 }))
          .map((r) => r.id)
          .filter((id) => ['H1', 'H2', 'H4', 'H5'].includes(id))
          .sort(),
      );
    });

    it('adds the offers holding a catalogue word spelt like a search word to the semantic candidates, up to the configured rarity', async () => {
      const terms = await t.dataSource.query(
        "SELECT term, documents FROM search_terms WHERE term IN ('matterhorn', 'zermat', 'zermatt') ORDER BY term",
      );
      expect(terms).toEqual([
        { term: 'matterhorn', documents: 2 },
        { term: 'zermat', documents: 1 },
        { term: 'zermatt', documents: 4 },
      ]);
      const saved = {
        candidates: t.config.SEARCH_SEMANTIC_CANDIDATES,
        maxDocuments: t.config.SEARCH_SPELLING_NEIGHBOUR_MAX_DOCUMENTS,
      };
      // One record from the index, so that what the spelling neighbours add shows.
      t.config.SEARCH_SEMANTIC_CANDIDATES = 1;
      const semanticOnly = { rrfVectorWeight: 1, semanticFloor: 0 };
      const ids = (page: { records: Scored[] }) => page.records.map((record) => record.id);
      const rankedBySimilarity = (page: { records: Scored[] }) =>
        page.records.forEach((record, i) => {
          expect(record._relevance_score).toBeCloseTo(1 / (K + i + 1), 12);
          if (i > 0) expect(record.semantic_score).toBeLessThanOrEqual(page.records[i - 1].semantic_score);
        });
      try {
        // Words of fewer than 5 letters get no typo correction on the text side, so what the
        // spelling neighbours add shows: no offer holds "lisb", H7 holds "lisbon".
        t.config.SEARCH_SPELLING_NEIGHBOUR_MAX_DOCUMENTS = 0;
        const off = await search({ search: 'Lisb', ...semanticOnly });
        expect(ids(off)).toHaveLength(1);
        const nearest = ids(off)[0];
        t.config.SEARCH_SPELLING_NEIGHBOUR_MAX_DOCUMENTS = 2;
        const typo = await search({ search: 'Lisb', ...semanticOnly });
        expect(ids(typo).sort()).toEqual([...new Set([nearest, 'H7'])].sort());
        rankedBySimilarity(typo);

        // "zermatt" is held by 4 offers, over a limit of 2; "zermat" by one (H4).
        const capped = await search({ search: 'Zerm', ...semanticOnly });
        expect(ids(capped)).toContain('H4');
        expect(ids(capped).filter((id) => ['H1', 'H2', 'H3'].includes(id)).length).toBeLessThanOrEqual(1);
        rankedBySimilarity(capped);
        t.config.SEARCH_SPELLING_NEIGHBOUR_MAX_DOCUMENTS = 4;
        const all = await search({ search: 'Zerm', ...semanticOnly });
        expect(ids(all)).toEqual(expect.arrayContaining(['H1', 'H2', 'H3', 'H4', 'H8']));
        expect(all.totalRecords).toBe(ids(all).length);
        rankedBySimilarity(all);
      } finally {
        t.config.SEARCH_SEMANTIC_CANDIDATES = saved.candidates;
        t.config.SEARCH_SPELLING_NEIGHBOUR_MAX_DOCUMENTS = saved.maxDocuments;
      }
    });

    it('the longest search allowed (500 characters, over 100 words) answers 200 with a consistent total', async () => {
      const words = Array.from({ length: 150 }, (_, i) => `w${i.toString(36)}x`).join(' ');
      const long = `Zermatt Matterhorn ${words}`.slice(0, 500);
      expect(long).toHaveLength(500);
      const page = await search({ search: long });
      expect(page.totalRecords).toBe(page.records.length);
    });

    if (mode === 'database') {
      it("gives the pgvector settings to the connection's session, and again when they change", async () => {
        const settings = async () =>
          // The pool hands out the connection released last: the one the search just used.
          (
            await t.dataSource.query(
              `SELECT current_setting('hnsw.ef_search') AS ef_search, current_setting('hnsw.iterative_scan') AS scan,
               current_setting('hnsw.max_scan_tuples') AS max_scan_tuples`,
            )
          )[0];
        const saved = t.config.SEARCH_HNSW_EF_SEARCH;
        try {
          await search({ search: 'Zermatt' });
          expect(await settings()).toEqual({
            ef_search: String(saved),
            scan: 'relaxed_order',
            max_scan_tuples: String(t.config.SEARCH_HNSW_MAX_SCAN_TUPLES),
          });
          t.config.SEARCH_HNSW_EF_SEARCH = 57;
          await search({ search: 'Zermatt' });
          expect(await settings()).toMatchObject({ ef_search: '57' });
        } finally {
          t.config.SEARCH_HNSW_EF_SEARCH = saved;
        }
      });
    } else {
      it("runs one statement per search, the page's records (search_statements_per_search)", async () => {
        const statements = async () => {
          const [observed] = (await t.app.get(SearchMetrics).statementsPerSearch.get()).values.filter(
            (value) => value.metricName === 'search_statements_per_search_sum',
          );
          return observed?.value ?? 0;
        };
        const before = await statements();
        await search({ search: 'Zermatt' });
        await search({ search: 'Zermatt ski', destination: 'CH' });
        await search({ search: 'Lisb', rrfVectorWeight: 1, semanticFloor: 0 });
        expect((await statements()) - before).toBe(3);
      });
    }

    it('orderBy is ignored; every density carries the three scores', async () => {
      const plain = await search({ search: 'Zermatt ski' });
      const ordered = await search({ search: 'Zermatt ski', orderBy: 'rating', orderDirection: 'desc' });
      expect(ordered.records).toEqual(plain.records);
      for (const infoDensity of ['min', 'card', 'search', 'full']) {
        const body = await search({ search: 'Zermatt ski', infoDensity, size: 3 });
        for (const record of body.records) {
          expect(record).toEqual(
            expect.objectContaining({
              _relevance_score: plain.records.find((r) => r.id === record.id)?._relevance_score,
              semantic_score: expect.any(Number),
              tsvector_score: expect.any(Number),
            }),
          );
        }
      }
      const full = (await t.http.get('/travels').query({ search: 'Zermatt ski', size: 1 }).expect(200)).body;
      expect(full.records[0]).toEqual({ ...RECORDS[0], ...plain.records[0] });
    });
  },
);

describe('GET /travels with a search when the embedding service is down', () => {
  const server = new FakeEmbeddingServer(384, builtinTimesThree);
  let strict: TestApp;

  const env = () => ({
    EMBEDDING_PROVIDER: 'http',
    EMBEDDING_URL: server.url,
    EMBEDDING_MODEL: 'fake-embed',
    EMBEDDING_TIMEOUT_MS: '300',
    EMBEDDING_MAX_RETRIES: '0',
    EMBEDDING_CIRCUIT_FAILURES: '100',
    SEARCH_FULLTEXT_FALLBACK: 'false',
    CATALOGUE_SOURCE: 'generated:30',
  });

  beforeAll(async () => {
    await server.up();
    strict = await createTestApp({ env: env() });
    await strict.reindex.idle();
    // the same search answered before and after the vectors load may differ in semantic_score's
    // last digits (pgvector sums in SIMD lanes), which this test compares
    await vectorsLoaded(strict);
  });
  afterAll(async () => {
    await strict?.close();
    await server.down();
  });

  it('embeds a query once: the second identical search (white space aside) is served from the cache', async () => {
    server.reset();
    const first = await strict.http
      .get('/travels')
      .query({ search: 'Randonnée', infoDensity: 'min' })
      .expect(200);
    const second = await strict.http
      .get('/travels')
      .query({ search: '  Randonnée ', infoDensity: 'min' })
      .expect(200);
    expect(second.body).toEqual(first.body);
    expect(first.headers['x-search-fallback']).toBeUndefined();
    expect(first.body.records.some((r: Scored) => r.semantic_score > 0)).toBe(true);
    expect(server.requests).toHaveLength(1);
    expect(server.requests[0].body.input).toEqual(['Randonnée']);
  });

  it('503 embedding_unavailable without the fallback; a full-text answer marked X-Search-Fallback with it', async () => {
    const [{ word }]: { word: string }[] = await strict.dataSource.query(
      "SELECT split_part(name, ' ', 1) AS word FROM travel_offers ORDER BY id LIMIT 1",
    );
    server.fallback = { kind: 'status', status: 500 };
    const refused = await strict.http
      .get('/travels')
      .query({ search: `${word} Berlin` })
      .expect(503);
    expect(refused.body).toEqual({ message: expect.any(String), error: 'embedding_unavailable' });

    await server.down();
    const down = await strict.http.get('/travels').query({ search: word }).expect(503);
    expect(down.body.error).toBe('embedding_unavailable');
    // The switch is read per request (one app: the embedded database is a single session).
    strict.config.SEARCH_FULLTEXT_FALLBACK = true;
    const fallback = await strict.http
      .get('/travels')
      .query({ search: word, infoDensity: 'min', size: 100 })
      .expect(200);
    expect(fallback.headers['x-search-fallback']).toBe('fulltext');
    expect(fallback.body.totalRecords).toBe(fallback.body.records.length);
    expect(fallback.body.totalRecords).toBeGreaterThan(0);
    (fallback.body.records as Scored[]).forEach((record, i) => {
      expect(record).toMatchObject({ _relevance_score: 1 / (61 + i), semantic_score: 0 });
      expect(record.tsvector_score).toBeGreaterThan(0);
    });
    // Filter-only listings never need the embedding service.
    const filterOnly = await strict.http.get('/travels').query({ infoDensity: 'min' }).expect(200);
    expect(filterOnly.headers['x-search-fallback']).toBeUndefined();
    await server.up();
    server.reset();
    const back = await strict.http.get('/travels').query({ search: word }).expect(200);
    expect(back.headers['x-search-fallback']).toBeUndefined();
  });
});
