import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, NodeProcess } from '@rt/testing';

/**
 * The README's run command on its built copies (`pnpm test:process` builds first): both services
 * come up on embedded databases, answer, stop cleanly on SIGTERM, and find their data again; what
 * they write stays under DATA_DIR.
 */
const root = join(__dirname, '..');

const startAll = (env: Record<string, string>) =>
  new NodeProcess({
    name: 'pnpm start',
    script: 'scripts/start-all.mjs',
    cwd: root,
    env: { LOG_LEVEL: 'info', ...env },
  });

const waitFor = (url: string, running: NodeProcess) => running.waitForOk(url, 60_000);

async function waitForFiles(
  folder: string,
  name: RegExp,
  running: NodeProcess,
  timeoutMs = 30000,
): Promise<string[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = (await readdir(folder).catch(() => [] as string[])).filter((file) => name.test(file));
    if (found.length > 0) return found;
    if (running.child.exitCode !== null || Date.now() > deadline) {
      throw new Error(`no ${name} in ${folder}; output:\n${running.output()}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

describe('pnpm start (both services, embedded databases)', () => {
  let dataDir: string;
  let env: Record<string, string>;
  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'rt-start-all-'));
    env = {
      DATA_DIR: dataDir,
      BACKEND_PORT: String(await freePort()),
      SEARCH_PORT: String(await freePort()),
      DATABASE_URL: '',
    };
  });
  afterAll(() => rm(dataDir, { recursive: true, force: true }));

  it('serves both services, stops on SIGTERM, and keeps the embedded data across a restart', async () => {
    const backend = `http://127.0.0.1:${env.BACKEND_PORT}`;
    const search = `http://127.0.0.1:${env.SEARCH_PORT}`;

    const first = startAll(env);
    expect(await (await waitFor(`${backend}/api/version`, first)).json()).toEqual({
      version: expect.any(String),
    });
    const searchRoot = (await (await waitFor(`${search}/`, first)).json()) as Record<string, unknown>;
    expect(searchRoot['app-name']).toBe('travel-search');
    for (const base of [backend, search]) {
      const ready = await waitFor(`${base}/health/ready`, first);
      expect(((await ready.json()) as { status: string }).status).toBe('ok');
      expect(await (await waitFor(`${base}/metrics`, first)).text()).toContain(
        'http_request_duration_seconds',
      );
    }
    expect(first.output()).toMatch(/Migrations applied: [1-9]/);
    // The demo's invitations, written by the local mail transport beside the embedded database.
    expect(await waitForFiles(join(dataDir, 'mail'), /\.eml$/, first)).not.toEqual([]);

    first.child.kill('SIGTERM');
    expect((await first.exited).code).toBe(0);
    expect(first.output().match(/"msg":"Closed"/g)).toHaveLength(2);

    const second = startAll(env);
    await waitFor(`${backend}/health/ready`, second);
    await waitFor(`${search}/health/ready`, second);
    expect(second.output()).not.toMatch(/Migrations applied: [1-9]/);
    second.child.kill('SIGINT');
    expect((await second.exited).code).toBe(0);
  });
});
