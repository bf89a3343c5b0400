import { execFileSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildOpenApiDocument } from '../src/http/docs/api-docs';
import { PREVIEW_ASSETS_DIR, PREVIEW_CONTENT_SECURITY_POLICY } from '../src/http/preview/preview-page';
import type { PreviewSettings } from '../src/http/preview/preview-settings';
import { createTestApp, TestApp } from './test-app';

/**
 * The search preview page (`/preview`, docs/preview.md): on by default in a local run, off
 * elsewhere unless SEARCH_PREVIEW=true. Its bundle is built by the real build script into a
 * folder of this file's own (so the test needs no earlier `pnpm build`); the browser check
 * (`pnpm check:preview`) drives the page itself.
 */
let assetsDir: string;

beforeAll(async () => {
  assetsDir = await mkdtemp(join(tmpdir(), 'rt-preview-assets-'));
  execFileSync(process.execPath, [join(__dirname, '..', 'preview-ui', 'build.mjs'), '--outdir', assetsDir], {
    stdio: 'pipe',
  });
});
afterAll(() => rm(assetsDir, { recursive: true, force: true }));

const previewApp = (env: Record<string, string>) =>
  createTestApp({ env, overrides: [{ provide: PREVIEW_ASSETS_DIR, useValue: assetsDir }] });

/** The `src` and `href` values of the page. */
const linksOf = (html: string): string[] =>
  [...html.matchAll(/\s(?:src|href)="([^"]*)"/g)].map((match) => match[1]);

const settingsOf = (html: string): PreviewSettings => {
  const json = /<script type="application\/json" id="preview-settings">([\s\S]*?)<\/script>/.exec(html)?.[1];
  if (json === undefined) throw new Error('the page carries no settings');
  return JSON.parse(json) as PreviewSettings;
};

describe('the preview page in production (APP_ENV=production, SEARCH_PREVIEW unset)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await previewApp({ APP_ENV: 'production' });
  });
  afterAll(() => t.close());

  it.each(['/preview', '/preview/assets/app.js', '/preview/assets/app.css'])('has no %s', async (path) => {
    const res = await t.http.get(path).expect(404);
    expect(res.body).toEqual({ message: expect.any(String), error: 'not_found' });
  });
});

describe('the preview page in production with SEARCH_PREVIEW=true', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await previewApp({
      APP_ENV: 'production',
      SEARCH_PREVIEW: 'true',
      SEARCH_RRF_VECTOR_WEIGHT: '0.25',
      SEARCH_TSVECTOR_FLOOR: '1.5',
      VERSION_TAG: 'v1.2.3',
    });
  });
  afterAll(() => t.close());

  it('serves the page under a policy that keeps every request on the service', async () => {
    const res = await t.http.get('/preview').expect(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.headers['content-security-policy']).toBe(PREVIEW_CONTENT_SECURITY_POLICY);
    expect(res.headers['content-security-policy']).toContain("default-src 'none'");
    expect(res.headers['x-robots-tag']).toBe('noindex, nofollow');
    expect(res.text).toContain('<title>Search preview');
    const links = linksOf(res.text);
    expect(links).toEqual(expect.arrayContaining(['/preview/assets/app.css', '/preview/assets/app.js']));
    for (const link of links) expect(link).toMatch(/^(\/|#|data:)/);
  });

  it('writes the ranking defaults the service applies into the page', async () => {
    const res = await t.http.get('/preview').expect(200);
    expect(settingsOf(res.text)).toEqual({
      service: { name: 'travel-search', version: 'v1.2.3' },
      embeddingProvider: 'builtin',
      defaults: { rrfVectorWeight: 0.25, semanticFloor: 0.1, tsvectorFloor: 1.5, rrfK: 60 },
    });
  });

  it('serves the bundle the page loads', async () => {
    const script = await t.http.get('/preview/assets/app.js').expect(200);
    expect(script.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(script.headers.etag).toBeDefined();
    expect(script.text.length).toBeGreaterThan(1000);
    const styles = await t.http.get('/preview/assets/app.css').expect(200);
    expect(styles.headers['content-type']).toBe('text/css; charset=utf-8');
    // A revalidation with the ETag answers 304 without the body.
    await t.http.get('/preview/assets/app.js').set('If-None-Match', script.headers.etag).expect(304);
  });

  it.each(['index.html', 'other.js', '..%2Fpackage.json', '.tsbuildinfo'])(
    'serves nothing else from the bundle folder (%s)',
    async (file) => {
      await t.http.get(`/preview/assets/${file}`).expect(404);
    },
  );

  it('keeps the page out of the OpenAPI contract', () => {
    const document = buildOpenApiDocument(t.app, 'test');
    expect(Object.keys(document.paths)).toContain('/travels');
    expect(Object.keys(document.paths).filter((path) => path.startsWith('/preview'))).toEqual([]);
  });
});

describe('the preview page in a local run', () => {
  it('is served by default (APP_ENV=local)', async () => {
    const t = await previewApp({ APP_ENV: 'local' });
    try {
      const res = await t.http.get('/preview').expect(200);
      expect(settingsOf(res.text).service.version).toBeNull();
    } finally {
      await t.close();
    }
  });

  it('says how to build the page when its bundle is missing', async () => {
    const emptyDir = await mkdtemp(join(tmpdir(), 'rt-preview-unbuilt-'));
    const t = await createTestApp({ overrides: [{ provide: PREVIEW_ASSETS_DIR, useValue: emptyDir }] });
    try {
      const page = await t.http.get('/preview').expect(404);
      expect(page.body.message).toContain('pnpm --filter search build');
      await t.http.get('/preview/assets/app.js').expect(404);
    } finally {
      await t.close();
      await rm(emptyDir, { recursive: true, force: true });
    }
  });

  it('is off with SEARCH_PREVIEW=false', async () => {
    const t = await previewApp({ APP_ENV: 'local', SEARCH_PREVIEW: 'false' });
    try {
      await t.http.get('/preview').expect(404);
    } finally {
      await t.close();
    }
  });
});
