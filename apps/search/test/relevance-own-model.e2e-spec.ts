import { FakeEmbeddingServer, trigramVector } from '@rt/testing';
import { readJudgedSet } from '../src/relevance/relevance';
import type { JudgedSet } from '../src/relevance/relevance';
import { relevanceOf, relevanceOptions } from '../src/relevance/relevance-cli';
import { TravelsService } from '../src/http/travels/travels.service';
import { rankingTuningOf } from '../src/http/travels/travels-request';
import { catalogueFolder, makeOffer, toNdjson } from './catalogue-fixtures';
import { createTestApp, TestApp } from './test-app';

/**
 * "Measuring your own model" (apps/search/README.md): one's own judged set, on one's own
 * catalogue file, through a model behind the HTTP provider (here the fake server's trigram vectors).
 */
describe('the relevance command on one’s own judged set and model (--provider http --judged)', () => {
  const server = new FakeEmbeddingServer(384, trigramVector);
  const folder = catalogueFolder();
  let t: TestApp;
  let judged: JudgedSet;

  beforeAll(async () => {
    await server.up();
    const files = await folder;
    await files.file(
      'offers.ndjson',
      toNdjson([
        makeOffer('L1', { name: 'Randonnée au bord du lac', language: 'fr' }),
        makeOffer('L2', { name: 'Wanderung am Seeufer', language: 'de' }),
        makeOffer('L3', { name: 'Museum night in Basel', language: 'en' }),
        makeOffer('L4', { name: 'Ski week in Verbier', language: 'en' }),
      ]),
    );
    const path = await files.file(
      'judged.json',
      JSON.stringify({
        catalogue: 'offers.ndjson',
        queries: [
          { type: 'cross_language', query: 'Wanderung am See', relevant: { L2: 2, L1: 2 } },
          { type: 'short_word', query: 'ski', relevant: { L4: 2 } },
        ],
      }),
    );
    judged = relevanceOptions(['--provider', 'http', '--judged', path]).judged;
    t = await createTestApp({
      env: {
        EMBEDDING_PROVIDER: 'http',
        EMBEDDING_URL: `${server.url}/v1`,
        EMBEDDING_MODEL: 'own-model',
        CATALOGUE_SOURCE: judged.catalogue,
      },
    });
    await t.reindex.idle();
  });
  afterAll(async () => {
    await t?.close();
    await server.down();
    await (await folder).cleanup();
  });

  it('reads the catalogue beside the judged set and measures the three rankings through the model', async () => {
    expect(judged.catalogue).toBe(`${judged.catalogue.slice(0, -'offers.ndjson'.length)}offers.ndjson`);
    expect(judged.catalogue.startsWith('/')).toBe(true);
    const report = await relevanceOf(t.app.get(TravelsService), judged);
    expect(report.hybrid.overall?.queries).toBe(2);
    expect(report.vector.overall?.queries).toBe(2);
    expect(report.text.short_word?.ndcg).toBe(1);
    // no reference ranker on a catalogue it does not know
    expect(report.reference).toEqual({});
    // the model was asked: the catalogue's records and the queries
    expect(server.requests.length).toBeGreaterThan(1);
    // the HTTP provider's fusion defaults (FUSION_DEFAULTS), not the built-in provider's
    const tuning = rankingTuningOf({}, t.config);
    expect([tuning.rrfVectorWeight, tuning.semanticFloor]).toEqual([0.5, 0]);
  });

  it('refuses an unknown provider and a malformed judged set, naming what is wrong', async () => {
    expect(() => relevanceOptions(['--provider', 'onnx'])).toThrow(/--provider must be one of builtin, http/);
    const files = await folder;
    const bad = await files.file(
      'bad.json',
      JSON.stringify({
        catalogue: 'offers.ndjson',
        queries: [{ type: 'gibberish', query: 'x', relevant: { L1: 2 } }],
      }),
    );
    expect(() => readJudgedSet(bad)).toThrow(/query 1: "type" must be one of exact_name/);
    const gradedNonsense = await files.file(
      'graded-nonsense.json',
      JSON.stringify({
        catalogue: 'offers.ndjson',
        queries: [{ type: 'nonsense', query: 'xyzzyqqq', relevant: { L1: 2 } }],
      }),
    );
    expect(() => readJudgedSet(gradedNonsense)).toThrow(/query 1: a "nonsense" query grades no offer/);
    const ungraded = await files.file(
      'ungraded.json',
      JSON.stringify({
        catalogue: 'offers.ndjson',
        queries: [{ type: 'typo', query: 'x', relevant: { L1: 3 } }],
      }),
    );
    expect(() => readJudgedSet(ungraded)).toThrow(/"relevant" must grade at least one offer id 1 or 2/);
  });
});
