import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const root = join(__dirname, '..');

/** The published build (`pnpm --filter @rt/client build`): both formats load, nothing Node-only. */
describe('the @rt/client package', () => {
  beforeAll(async () => {
    const tsup = join(dirname(require.resolve('tsup/package.json')), 'dist', 'cli-default.js');
    await run(process.execPath, [tsup, '--silent'], { cwd: root });
  }, 120_000);

  const exportsOf = async (script: string, ...flags: string[]) =>
    JSON.parse((await run(process.execPath, [...flags, '-e', script], { cwd: root })).stdout) as string[];

  it('is loaded by require (CommonJS) and import (ESM) through its exports map, with the same API', async () => {
    const required = await exportsOf(
      "console.log(JSON.stringify(Object.keys(require('@rt/client')).sort()))",
    );
    const imported = await exportsOf(
      "import('@rt/client').then((m) => console.log(JSON.stringify(Object.keys(m).sort())))",
      '--input-type=module',
    );
    expect(required).toEqual([
      'ApiError',
      'ERROR_CODES',
      'VALIDATION_REASONS',
      'createBackendClient',
      'createSearchClient',
      'isApiError',
      'organizationHat',
    ]);
    expect(imported).toEqual(required);
  }, 30_000);

  it('is built by `pnpm install` (prepare), which skips it where only the manifest is (image builds)', async () => {
    const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
    expect(manifest.scripts.prepare).toBe('test ! -f src/index.ts || tsup --silent');
    // The Dockerfiles install from the package manifests alone, before the sources are copied.
    const manifestOnly = await mkdtemp(join(tmpdir(), 'rt-client-manifest-'));
    try {
      await run('sh', ['-c', manifest.scripts.prepare], { cwd: manifestOnly });
      expect(existsSync(join(manifestOnly, 'dist'))).toBe(false);
    } finally {
      await rm(manifestOnly, { recursive: true, force: true });
    }
  });

  it('declares its types for both, and imports nothing but openapi-fetch (browsers, Node 20+)', () => {
    const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
    for (const file of ['index.mjs', 'index.cjs', 'index.d.ts', 'index.d.mts']) {
      expect(readFileSync(join(root, 'dist', file), 'utf8').length).toBeGreaterThan(0);
    }
    expect(manifest.exports['.']).toEqual({
      import: { types: './dist/index.d.mts', default: './dist/index.mjs' },
      require: { types: './dist/index.d.ts', default: './dist/index.cjs' },
    });
    const esm = readFileSync(join(root, 'dist', 'index.mjs'), 'utf8');
    const cjs = readFileSync(join(root, 'dist', 'index.cjs'), 'utf8');
    expect([...esm.matchAll(/^import [^;]*? from "([^"]+)";$/gm)].map((m) => m[1])).toEqual([
      'openapi-fetch',
    ]);
    expect([...cjs.matchAll(/require\("([^"]+)"\)/g)].map((m) => m[1])).toEqual(['openapi-fetch']);
    expect(`${esm}${cjs}`).not.toMatch(/\bprocess\.|\bBuffer\b|node:/);
  });
});
