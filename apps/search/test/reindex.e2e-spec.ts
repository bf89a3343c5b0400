import { setTimeout as sleep } from 'node:timers/promises';
import { Client } from 'pg';
import type { CatalogueRecord } from '../src/catalogue/catalogue-record';
import type { ReindexProgress } from '../src/indexes/reindex/rebuild-run';
import { catalogueFolder, catalogueServer, makeOffer, toNdjson } from './catalogue-fixtures';
import { createTestApp, readyAnswer, TestApp } from './test-app';

const ZURICH_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}\+0[12]:00$/;
const V1 = ['R1', 'R2', 'R3', 'R4', 'R5'].map((id) => makeOffer(id, { name: `First ${id}` }));

interface IndexRow {
  id: string;
  name: string;
  content_hash: string;
  indexed_at: Date;
  embedding: string;
}

describe('reindex', () => {
  let t: TestApp;
  let folder: Awaited<ReturnType<typeof catalogueFolder>>;

  const rows = async (): Promise<IndexRow[]> =>
    t.dataSource.query(
      'SELECT id, name, content_hash, indexed_at, embedding::text AS embedding FROM travel_offers ORDER BY id',
    );
  const listedIds = async () =>
    (
      (await t.http.get('/travels?size=100&infoDensity=min').expect(200)).body.records as { id: string }[]
    ).map((r) => r.id);
  const runs = async (): Promise<{ status: string; triggered_by: string; error: string | null }[]> =>
    t.dataSource.query(
      'SELECT status, triggered_by, error, inserted, updated, unchanged, removed, invalid FROM reindex_runs ORDER BY id',
    );
  const useSource = (source: string) => {
    t.config.catalogueSource = source;
  };

  beforeAll(async () => {
    folder = await catalogueFolder();
    // An empty index with a source configured is built at start-up.
    t = await createTestApp({ env: { CATALOGUE_SOURCE: await folder.file('v1.ndjson', toNdjson(V1)) } });
  });
  afterAll(async () => {
    await t.close();
    await folder.cleanup();
  });

  it('builds the empty index at start-up, then is ready', async () => {
    await t.reindex.idle();
    expect(await listedIds()).toEqual(['R1', 'R2', 'R3', 'R4', 'R5']);
    expect(await runs()).toEqual([
      expect.objectContaining({ status: 'succeeded', triggered_by: 'startup', inserted: 5 }),
    ]);
    const ready = await readyAnswer(t);
    expect(ready.body.details.index).toEqual({ status: 'up' });
    // The postings' impacts are computed once, against the first build's own average length (the
    // migrations leave an empty index's statistics behind, which are no reference).
    const [stats] = (await t.dataSource.query(
      'SELECT offers, average_length, reference_length FROM search_stats',
    )) as { offers: number; average_length: number; reference_length: number }[];
    expect(stats.offers).toBe(5);
    expect(stats.reference_length).toBe(stats.average_length);
    // Written once: the first live posting is the table's first tuple (a rewrite leaves the
    // first writing's tuples dead before it).
    expect(await t.dataSource.query('SELECT min(ctid)::text AS first FROM search_postings')).toEqual([
      { first: '(0,1)' },
    ]);
  });

  it('GET /reindex answers at once with message and Zurich time; an unchanged source rewrites nothing', async () => {
    const before = await rows();
    const res = await t.http.get('/reindex').expect(200);
    expect(res.body).toEqual({
      message: 'Reindex started in the background.',
      time: expect.stringMatching(ZURICH_TIME),
    });
    expect(Math.abs(Date.parse(res.body.time) - Date.now())).toBeLessThan(5000);
    await t.reindex.idle();
    expect((await runs()).at(-1)).toMatchObject({
      status: 'succeeded',
      triggered_by: 'http',
      unchanged: 5,
      inserted: 0,
      updated: 0,
    });
    expect(await rows()).toEqual(before);
  });

  it('embeds and rewrites only changed records, inserts new ones, removes missing ones, skips and counts invalid ones', async () => {
    const before = new Map((await rows()).map((row) => [row.id, row]));
    const reordered = Object.fromEntries(Object.entries(V1[1]).reverse()) as CatalogueRecord;
    const lines = [
      JSON.stringify({ ...V1[0], name: 'Changed R1' }),
      JSON.stringify(reordered), // same content, other key order: unchanged
      JSON.stringify(V1[2]),
      JSON.stringify(V1[4]),
      JSON.stringify(makeOffer('R6', { name: 'New R6' })),
      '{"id": "BROKEN", "name": ', // not JSON
      JSON.stringify({ ...makeOffer('BAD1'), name: '' }),
      JSON.stringify({ ...makeOffer('BAD2'), nextDeparture: '2027-02-30T10:00' }),
      JSON.stringify({ ...makeOffer('BAD3'), destination: { code: 'fr', name: 'France' } }),
      JSON.stringify({ ...V1[2], name: 'Duplicate R3' }),
    ];
    useSource(await folder.file('v2.ndjson', lines.join('\n')));
    const progress: ReindexProgress[] = [];
    const outcome = await t.reindex.run('cli', { onProgress: (p) => progress.push({ ...p }) });

    expect(outcome).toMatchObject({
      status: 'succeeded',
      inserted: 1,
      updated: 1,
      unchanged: 3,
      removed: 1,
      invalid: 5,
      total: 5,
    });
    expect(progress.at(-1)).toMatchObject({ read: 10, total: 10, invalid: 5, embedded: 2, phase: 'done' });
    const after = new Map((await rows()).map((row) => [row.id, row]));
    expect([...after.keys()]).toEqual(['R1', 'R2', 'R3', 'R5', 'R6']);
    expect(after.get('R1')?.name).toBe('Changed R1');
    expect(after.get('R1')?.content_hash).not.toBe(before.get('R1')?.content_hash);
    expect(after.get('R1')?.embedding).not.toBe(before.get('R1')?.embedding);
    for (const id of ['R2', 'R3', 'R5']) expect(after.get(id)).toEqual(before.get(id));
    expect(await listedIds()).toEqual(['R1', 'R2', 'R3', 'R5', 'R6']);
    const staged = await t.dataSource.query('SELECT count(*)::int AS n FROM travel_offers_staging');
    expect(staged).toEqual([{ n: 0 }]);
    // The vocabulary (single words, and pairs of adjacent words) and the postings of the text side
    // follow the applied catalogue, in the same transaction.
    const terms = (await t.dataSource.query('SELECT term, documents FROM search_terms ORDER BY term')) as {
      term: string;
      documents: number;
    }[];
    const lexemes = await t.dataSource.query(
      `SELECT word AS term, ndoc AS documents FROM ts_stat('SELECT search_vector FROM travel_offers')
       ORDER BY word COLLATE "C"`,
    );
    expect(terms.filter((row) => !row.term.includes(' '))).toEqual(lexemes);
    expect(terms).toContainEqual({ term: 'changed', documents: 1 });
    const postings = await t.dataSource.query(
      `SELECT count(DISTINCT offer_id)::int AS offers, count(*) FILTER (WHERE offer_id = 'R4')::int AS removed
       FROM search_postings`,
    );
    expect(postings).toEqual([{ offers: 5, removed: 0 }]);
    expect(await t.dataSource.query('SELECT offers FROM search_stats')).toEqual([{ offers: 5 }]);
  });

  describe('a failing source changes nothing', () => {
    let server: Awaited<ReturnType<typeof catalogueServer>>;
    beforeAll(async () => {
      server = await catalogueServer(async (request, response) => {
        if (request.url === '/down') {
          response.writeHead(500, { 'content-type': 'application/json' }).end('{"error":"boom"}');
        } else if (request.url === '/cut.ndjson') {
          response.writeHead(200, { 'content-type': 'application/x-ndjson' });
          response.write(toNdjson([makeOffer('R1'), makeOffer('R2')]));
          await sleep(50);
          response.destroy();
        } else if (request.url === '/truncated.json') {
          response
            .writeHead(200, { 'content-type': 'application/json' })
            .end(JSON.stringify([makeOffer('R1')]).slice(0, -5));
        } else {
          response.writeHead(404).end();
        }
      });
    });
    afterAll(() => server.close());

    it.each([
      ['a missing file', () => '/nonexistent/catalogue.ndjson', /cannot read/],
      ['a truncated JSON document', () => folder.file('truncated.json', '[{"id": "R1"'), /not valid JSON/],
      [
        'a JSON document that is not a list',
        () => folder.file('object.json', '{"records": []}'),
        /not a JSON array/,
      ],
      ['an HTTP error', () => `${server.url}/down`, /answered 500/],
      ['an unreachable URL', () => 'http://127.0.0.1:9/catalogue.json', /cannot fetch/],
      [
        'an HTTP stream cut in the middle',
        () => `${server.url}/cut.ndjson`,
        /failed|terminated|aborted|reset/i,
      ],
      ['an HTTP JSON document cut short', () => `${server.url}/truncated.json`, /not valid JSON/],
    ])('%s', async (_name, source, error) => {
      const before = await rows();
      useSource(await source());
      const outcome = await t.reindex.run('cli');
      expect(outcome).toMatchObject({ status: 'failed', error: expect.stringMatching(error) });
      expect(await rows()).toEqual(before);
      expect((await runs()).at(-1)).toMatchObject({ status: 'failed', error: expect.stringMatching(error) });
      expect(await t.dataSource.query('SELECT count(*)::int AS n FROM travel_offers_staging')).toEqual([
        { n: 0 },
      ]);
    });
  });

  it('refuses a source that would remove more than the configured share, unless forced', async () => {
    const before = await rows();
    useSource(await folder.file('tiny.ndjson', toNdjson([makeOffer('R1', { name: 'Changed R1' })])));
    const refused = await t.reindex.run('cli');
    expect(refused).toMatchObject({
      status: 'refused',
      removed: 4,
      error: expect.stringMatching(/remove 4 of 5 offers/),
    });
    expect(await rows()).toEqual(before);
    expect((await runs()).at(-1)).toMatchObject({ status: 'refused' });

    const forced = await t.reindex.run('cli', { force: true });
    expect(forced).toMatchObject({ status: 'succeeded', removed: 4, unchanged: 1, total: 1 });
    expect(await listedIds()).toEqual(['R1']);
    // Back to five offers for the next tests.
    useSource(await folder.file('v1-again.ndjson', toNdjson(V1)));
    expect(await t.reindex.run('cli')).toMatchObject({ status: 'succeeded', total: 5 });
  });

  it('reads a JSON array over HTTP', async () => {
    const server = await catalogueServer((_request, response) => {
      response
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify([...V1, makeOffer('R7')]));
    });
    try {
      useSource(`${server.url}/catalogue.json`);
      expect(await t.reindex.run('cli')).toMatchObject({
        status: 'succeeded',
        inserted: 1,
        unchanged: 5,
        total: 6,
      });
    } finally {
      await server.close();
    }
  });

  it('runs one rebuild for two concurrent triggers', async () => {
    let requests = 0;
    const server = await catalogueServer(async (_request, response) => {
      requests++;
      await sleep(300);
      response.writeHead(200, { 'content-type': 'application/x-ndjson' }).end(toNdjson(V1));
    });
    try {
      useSource(`${server.url}/catalogue.ndjson`);
      const runsBefore = (await runs()).length;
      const [first, second] = await Promise.all([
        t.http.get('/reindex').expect(200),
        t.http.get('/reindex').expect(200),
      ]);
      expect([first.body.message, second.body.message].sort()).toEqual([
        'A reindex is already running; this request was ignored.',
        'Reindex started in the background.',
      ]);
      await t.reindex.idle();
      expect(requests).toBe(1);
      expect(await runs()).toHaveLength(runsBefore + 1);
      expect(await listedIds()).toEqual(['R1', 'R2', 'R3', 'R4', 'R5']);
    } finally {
      await server.close();
    }
  });

  it('keeps listings answering, with the old catalogue or the new one and never a mix, throughout a rebuild', async () => {
    const next = [
      makeOffer('R1', { name: 'Next R1' }),
      makeOffer('R2'),
      makeOffer('R3', { name: 'Next R3' }),
      makeOffer('R4', { name: 'First R4' }),
      ...Array.from({ length: 16 }, (_, i) =>
        makeOffer(`S${String(i).padStart(2, '0')}`, { name: `Next S${i}` }),
      ),
    ];
    // R5 goes, R2 changes its name back to the default.
    const server = await catalogueServer(async (_request, response) => {
      response.writeHead(200, { 'content-type': 'application/x-ndjson' });
      for (const record of next) {
        response.write(`${JSON.stringify(record)}\n`);
        await sleep(40);
      }
      response.end();
    });
    try {
      const oldCatalogue = JSON.stringify((await t.http.get('/travels?size=100&infoDensity=min')).body);
      useSource(`${server.url}/catalogue.ndjson`);
      t.config.REINDEX_BATCH_SIZE = 3;
      await t.http.get('/reindex').expect(200);
      const answers: string[] = [];
      let duringRebuild = 0;
      while (t.reindex.isRunning) {
        const res = await t.http.get('/travels?size=100&infoDensity=min').expect(200);
        if (t.reindex.isRunning) duringRebuild++;
        answers.push(JSON.stringify(res.body));
        await sleep(15);
      }
      const newCatalogue = JSON.stringify((await t.http.get('/travels?size=100&infoDensity=min')).body);
      expect(JSON.parse(newCatalogue).totalRecords).toBe(20);
      expect(duringRebuild).toBeGreaterThan(5);
      expect(answers.filter((answer) => answer !== oldCatalogue && answer !== newCatalogue)).toEqual([]);
      expect(answers[0]).toBe(oldCatalogue);
    } finally {
      t.config.REINDEX_BATCH_SIZE = 500;
      await server.close();
    }
  });

  it('skips a rebuild while another instance holds the rebuild lock (real server)', async () => {
    if (t.database.singleSession) return; // one session: the in-process guard is the lock (tested above)
    useSource(await folder.file('v1-locked.ndjson', toNdjson(V1)));
    const other = new Client({ connectionString: t.database.url });
    await other.connect();
    try {
      await other.query(`SELECT pg_advisory_lock(hashtext('search:reindex'))`);
      expect(await t.reindex.run('cli')).toMatchObject({ status: 'skipped' });
      await other.query(`SELECT pg_advisory_unlock(hashtext('search:reindex'))`);
      expect(await t.reindex.run('cli', { force: true })).toMatchObject({ status: 'succeeded', total: 5 });
    } finally {
      await other.end();
    }
  });

  it('says so when no source is configured', async () => {
    const source = t.config.catalogueSource;
    t.config.catalogueSource = undefined;
    try {
      const res = await t.http.get('/reindex').expect(200);
      expect(res.body.message).toMatch(/No catalogue source is configured/);
    } finally {
      t.config.catalogueSource = source;
    }
  });
});

describe('readiness before the first build', () => {
  it('is not ready until the first build of an empty index is done', async () => {
    let release!: () => void;
    const gate = new Promise<void>((done) => (release = done));
    const server = await catalogueServer(async (_request, response) => {
      await gate;
      response.writeHead(200, { 'content-type': 'application/x-ndjson' }).end(toNdjson(V1));
    });
    const t = await createTestApp({ env: { CATALOGUE_SOURCE: `${server.url}/catalogue.ndjson` } });
    try {
      expect(t.reindex.isRunning).toBe(true);
      const notReady = await t.http.get('/health/ready').expect(503);
      expect(notReady.body.error.index).toEqual({
        status: 'down',
        message: 'the first index build is not done yet',
      });
      // Listings answer meanwhile, from the empty index.
      expect((await t.http.get('/travels').expect(200)).body.totalRecords).toBe(0);
      release();
      await t.reindex.idle();
      await readyAnswer(t);
      expect((await t.http.get('/travels').expect(200)).body.totalRecords).toBe(5);
    } finally {
      release();
      await t.close();
      await server.close();
    }
  });
});

describe('first build of a large catalogue', () => {
  it('bulk-loads an empty index and rebuilds every index as the migrations define it', async () => {
    const t = await createTestApp({ env: { CATALOGUE_SOURCE: 'none' } });
    try {
      const indexes = () =>
        t.dataSource.query(
          `SELECT indexname, indexdef FROM pg_indexes WHERE tablename = 'travel_offers' ORDER BY indexname`,
        ) as Promise<{ indexname: string; indexdef: string }[]>;
      const before = await indexes();
      expect(before.length).toBeGreaterThanOrEqual(15);
      t.config.catalogueSource = 'generated:1100';
      expect(await t.reindex.run('cli')).toMatchObject({ status: 'succeeded', inserted: 1100, total: 1100 });
      expect(await indexes()).toEqual(before);
      const listing = await t.http
        .get('/travels?destination=FR&orderBy=rating&orderDirection=desc&infoDensity=min')
        .expect(200);
      expect(listing.body.totalRecords).toBeGreaterThan(10);
      const search = await t.http.get('/travels?search=discovery&infoDensity=min').expect(200);
      expect(search.body.totalRecords).toBeGreaterThan(0);
      // The second run takes the ordinary path: nothing to rewrite.
      expect(await t.reindex.run('cli')).toMatchObject({ status: 'succeeded', unchanged: 1100, inserted: 0 });
    } finally {
      await t.close();
    }
  });
});
