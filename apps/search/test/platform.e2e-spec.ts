import { createTestApp, readyAnswer, TestApp } from './test-app';

describe('search service platform', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: { VERSION_TAG: 'v1.2.3', BUILD_DATE: '' } });
  });
  afterAll(() => t.close());

  it('answers GET / with the root response in Europe/Zurich time', async () => {
    const res = await t.http.get('/').expect(200);
    expect(res.body).toEqual({
      'app-name': 'travel-search',
      datetime: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}\+0[12]:00$/),
      'version-tag': 'v1.2.3',
      'build-date': null,
    });
    const answeredAt = Date.parse(res.body.datetime);
    expect(Math.abs(answeredAt - Date.now())).toBeLessThan(5000);
  });

  it('has pgvector: the cosine distance operator works', async () => {
    const rows: { distance: number; similarity: number }[] = await t.dataSource.query(
      `SELECT '[1,0,0]'::vector <=> '[0,1,0]'::vector AS distance,
              1 - ('[1,1,0]'::vector <=> '[1,0,0]'::vector) AS similarity`,
    );
    expect(rows[0].distance).toBeCloseTo(1, 6);
    expect(rows[0].similarity).toBeCloseTo(Math.SQRT1_2, 6);
  });

  it('serves liveness, readiness and metrics', async () => {
    await t.http.get('/health/live').expect(200);
    const ready = await readyAnswer(t);
    expect(ready.body.details.database.status).toBe('up');
    const metrics = await t.http.get('/metrics').expect(200);
    expect(metrics.text).toMatch(
      /http_request_duration_seconds_count\{method="GET",route="\/",status_code="200"\} \d+/,
    );
  });

  it('is open to every origin with credentials, echoing the origin', async () => {
    const preflight = await t.http
      .options('/travels')
      .set('Origin', 'https://app.example.test')
      .set('Access-Control-Request-Method', 'GET')
      .expect(204);
    expect(preflight.headers['access-control-allow-origin']).toBe('https://app.example.test');
    expect(preflight.headers['access-control-allow-credentials']).toBe('true');
  });

  it('refuses a body over BODY_LIMIT_BYTES (1 MiB by default) with 413 payload_too_large', async () => {
    const res = await t.http
      .get('/travels')
      .set('Content-Type', 'application/json')
      .send(JSON.stringify({ padding: 'x'.repeat(1024 * 1024) }))
      .expect(413);
    expect(res.body).toEqual({ message: expect.any(String), error: 'payload_too_large' });
  });

  it('answers unknown routes with the 404 envelope', async () => {
    await t.http.get('/nope').expect(404, { message: 'Not found.', error: 'not_found' });
  });
});
