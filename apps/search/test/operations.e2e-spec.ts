import parsePrometheusTextFormat, { PrometheusFamily } from 'parse-prometheus-text-format';
import { catalogueFolder, makeOffer, toNdjson } from './catalogue-fixtures';
import { createTestApp, readyAnswer, TestApp } from './test-app';

const FINGERPRINT =
  '14:6D:E9:83:C5:73:06:50:D8:EE:B9:95:2F:34:FC:64:16:A0:83:42:E6:1D:BE:A8:8A:04:96:B2:3F:CF:44:E5';

describe('operations endpoints (docs off outside a local run, app links configured)', () => {
  let t: TestApp;
  let folder: Awaited<ReturnType<typeof catalogueFolder>>;

  beforeAll(async () => {
    folder = await catalogueFolder();
    const records = [makeOffer('M1'), makeOffer('M2'), makeOffer('M3')];
    const source = await folder.file('catalogue.ndjson', `${toNdjson(records)}not json\n`);
    t = await createTestApp({
      env: {
        // Production without WITH_DOCS: no docs (its test database is migrated already).
        APP_ENV: 'production',
        CATALOGUE_SOURCE: source,
        ANDROID_PACKAGE_NAME: 'com.example.roadtrip',
        ANDROID_CERT_FINGERPRINTS: `${FINGERPRINT}, ${FINGERPRINT.replace('14:6D', 'AA:BB')}`,
      },
    });
    await t.reindex.idle();
  });
  afterAll(async () => {
    await t.close();
    await folder.cleanup();
  });

  const family = (families: PrometheusFamily[], name: string) => {
    const found = families.find((f) => f.name === name);
    if (!found) throw new Error(`metric ${name} is missing`);
    return found;
  };
  const sample = (f: PrometheusFamily, labels: Record<string, string> = {}) =>
    f.metrics.find((m) => Object.entries(labels).every(([k, v]) => m.labels?.[k] === v));

  it('exposes default, HTTP, listing and reindex metrics in the Prometheus text format', async () => {
    await t.http.get('/travels').expect(200);
    await t.http.get('/travels?search=offer').expect(200);
    await t.http.get('/travels?search=%20%20').expect(200);
    const res = await t.http.get('/metrics').expect(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain;.*version=0\.0\.4/);
    const families = parsePrometheusTextFormat(res.text);

    expect(family(families, 'process_cpu_seconds_total').type).toBe('COUNTER');
    expect(family(families, 'nodejs_heap_size_used_bytes').type).toBe('GAUGE');
    const http = family(families, 'http_request_duration_seconds');
    expect(http.type).toBe('HISTOGRAM');
    // The parser folds labelled histograms into one sample, so their counts are read from the text.
    expect(res.text).toMatch(
      /^http_request_duration_seconds_count\{method="GET",route="\/travels",status_code="200"\} 3$/m,
    );

    const requests = family(families, 'search_travels_requests_total');
    expect(requests.type).toBe('COUNTER');
    expect(sample(requests, { branch: 'filter' })?.value).toBe('2');
    expect(sample(requests, { branch: 'search' })?.value).toBe('1');
    expect(family(families, 'search_travels_query_duration_seconds').type).toBe('HISTOGRAM');

    const running = family(families, 'search_reindex_running');
    expect(running.type).toBe('GAUGE');
    expect(running.metrics[0].value).toBe('0');
    const runs = family(families, 'search_reindex_runs_total');
    expect(sample(runs, { result: 'succeeded' })?.value).toBe('1');
    expect(sample(runs, { result: 'failed' })?.value).toBe('0');
    const duration = family(families, 'search_reindex_duration_seconds');
    expect(duration.type).toBe('HISTOGRAM');
    expect(res.text).toMatch(/^search_reindex_duration_seconds_count\{result="succeeded"\} 1$/m);
    const records = family(families, 'search_reindex_records_total');
    expect(sample(records, { outcome: 'inserted' })?.value).toBe('3');
    expect(sample(records, { outcome: 'invalid' })?.value).toBe('1');
    expect(sample(records, { outcome: 'removed' })?.value).toBe('0');
    const lastSuccess = Number(
      family(families, 'search_reindex_last_success_timestamp_seconds').metrics[0].value,
    );
    expect(Math.abs(lastSuccess - Date.now() / 1000)).toBeLessThan(60);
  });

  it('shows a running reindex in the gauge', async () => {
    const gauge = async () =>
      family(parsePrometheusTextFormat((await t.http.get('/metrics')).text), 'search_reindex_running')
        .metrics[0].value;
    await t.http.get('/reindex').expect(200);
    const during = await gauge();
    await t.reindex.idle();
    expect(['0', '1']).toContain(during);
    expect(await gauge()).toBe('0');
  });

  it('answers CORS preflights for any origin, with credentials', async () => {
    const preflight = await t.http
      .options('/travels')
      .set('Origin', 'https://shop.example.test')
      .set('Access-Control-Request-Method', 'GET')
      .set('Access-Control-Request-Headers', 'x-request-id, content-type')
      .expect(204);
    expect(preflight.headers['access-control-allow-origin']).toBe('https://shop.example.test');
    expect(preflight.headers['access-control-allow-credentials']).toBe('true');
    expect(preflight.headers['access-control-allow-methods']).toContain('GET');
    expect(preflight.headers['access-control-allow-headers']).toBe('x-request-id, content-type');
    const get = await t.http.get('/travels').set('Origin', 'https://other.example.test').expect(200);
    expect(get.headers['access-control-allow-origin']).toBe('https://other.example.test');
  });

  it('serves the Android app-links file from configuration', async () => {
    const res = await t.http.get('/.well-known/assetlinks.json').expect(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.body).toEqual([
      {
        relation: ['delegate_permission/common.handle_all_urls'],
        target: {
          namespace: 'android_app',
          package_name: 'com.example.roadtrip',
          sha256_cert_fingerprints: [FINGERPRINT, FINGERPRINT.replace('14:6D', 'AA:BB')],
        },
      },
    ]);
  });

  it.each(['/docs', '/redoc', '/openapi.json'])(
    'has no %s outside a local run unless asked',
    async (path) => {
      await t.http.get(path).expect(404, { message: 'Not found.', error: 'not_found' });
    },
  );

  it('reports the index in readiness', async () => {
    const res = await readyAnswer(t);
    expect(res.body.details).toEqual({
      database: { status: 'up' },
      index: { status: 'up' },
      text_index: { status: 'up' },
      vector_index: { status: 'up' },
    });
  });
});

describe('operations endpoints (docs asked for in production, no app configured)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: { APP_ENV: 'production', WITH_DOCS: 'true', VERSION_TAG: 'v9.9.9' } });
  });
  afterAll(() => t.close());

  it('serves an empty app-links list when no app is configured', async () => {
    await t.http.get('/.well-known/assetlinks.json').expect(200, []);
  });

  it('serves Swagger UI at /docs and ReDoc at /redoc', async () => {
    const docs = await t.http.get('/docs').redirects(1).expect(200);
    expect(docs.text).toContain('swagger-ui');
    const redoc = await t.http.get('/redoc').expect(200);
    expect(redoc.headers['content-type']).toMatch(/^text\/html/);
    expect(redoc.text).toContain('spec-url="/openapi.json"');
  });

  it('serves a valid OpenAPI 3.1 document built from the decorators', async () => {
    const res = await t.http.get('/openapi.json').expect(200);
    const document = res.body;
    expect(document.openapi).toBe('3.1.0');
    expect(document.info).toMatchObject({ title: 'Travel search service', version: 'v9.9.9' });
    expect(Object.keys(document.paths).sort()).toEqual([
      '/',
      '/.well-known/assetlinks.json',
      '/reindex',
      '/travels',
    ]);
    const travels = document.paths['/travels'].get;
    expect(travels.parameters.map((p: { name: string }) => p.name).sort()).toEqual(
      [
        'X-Request-Id',
        'category',
        'dates',
        'destination',
        'discountclub',
        'explain',
        'facets',
        'hide_invalid',
        'infoDensity',
        'orderBy',
        'orderDirection',
        'page',
        'rrfVectorWeight',
        'search',
        'seaside',
        'semanticFloor',
        'size',
        'tsvectorFloor',
      ].sort(),
    );
    const size = travels.parameters.find((p: { name: string }) => p.name === 'size');
    expect(size.schema).toMatchObject({ type: 'integer', minimum: 1, maximum: 100, default: 8 });
    expect(Object.keys(travels.responses).sort()).toEqual(['200', '422', '429', '503']);
    // the flood limit (docs/decisions.md D-73)
    expect(travels.responses['429'].description).toMatch(/`too_many_requests`/);
    expect(travels.responses['429'].headers).toHaveProperty('Retry-After');
    expect(travels.responses['503'].description).toMatch(/`embedding_unavailable`.*`service_unavailable`/s);
    expect(travels.responses['503'].headers).toHaveProperty('Retry-After');
    const schemas = document.components.schemas;
    expect(Object.keys(schemas)).toEqual(
      expect.arrayContaining([
        'TravelListingResponseDto',
        'TravelMinDto',
        'TravelCardDto',
        'TravelSearchDto',
        'TravelFullDto',
        'ReindexResponseDto',
      ]),
    );
    expect(schemas.TravelCardDto.properties.rating.type).toEqual(['number', 'null']);
    // No OpenAPI 3.0 leftovers anywhere.
    const text = JSON.stringify(document);
    expect(text).not.toContain('"nullable"');
    expect(text).not.toMatch(/"exclusive(Minimum|Maximum)":(true|false)/);
    expect(JSON.stringify(schemas)).not.toContain('"example":');
    // Every $ref resolves.
    for (const [, name] of text.matchAll(/"\$ref":"#\/components\/schemas\/([^"]+)"/g))
      expect(schemas[name]).toBeDefined();
  });
});

describe('API docs in a local run', () => {
  let local: TestApp;
  let turnedOff: TestApp;
  beforeAll(async () => {
    local = await createTestApp({ env: { APP_ENV: 'local' } });
    turnedOff = await createTestApp({ env: { APP_ENV: 'local', WITH_DOCS: 'false' } });
  });
  afterAll(() => Promise.all([local.close(), turnedOff.close()]));

  it('serves /docs, /redoc and /openapi.json without WITH_DOCS', async () => {
    expect(local.config.WITH_DOCS).toBeUndefined();
    expect((await local.http.get('/docs').redirects(1).expect(200)).text).toContain('swagger-ui');
    await local.http.get('/redoc').expect(200);
    expect((await local.http.get('/openapi.json').expect(200)).body.openapi).toBe('3.1.0');
  });

  it.each(['/docs', '/redoc', '/openapi.json'])('has no %s with WITH_DOCS=false', async (path) => {
    await turnedOff.http.get(path).expect(404, { message: 'Not found.', error: 'not_found' });
  });
});
