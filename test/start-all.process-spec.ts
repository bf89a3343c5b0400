import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, NodeProcess } from '@rt/testing';

/**
 * The README's run command: both services come up on embedded databases, answer, stop cleanly on
 * SIGTERM (to the script, and to the `pnpm start` that runs it), and find their data again, image
 * links included; what they write stays under DATA_DIR. `pnpm start` builds first (a no-op after
 * `pnpm check:process`'s own build).
 */
const root = join(__dirname, '..');
const ADMIN = { email: 'admin@example.com', password: 'process-test-password' };
// A 1×1 PNG: enough for an upload and its signed URL.
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==',
  'base64',
);

const startAll = (env: Record<string, string>) =>
  new NodeProcess({
    name: 'pnpm start',
    script: 'scripts/start-all.mjs',
    cwd: root,
    env: { LOG_LEVEL: 'info', ...env },
  });

const waitFor = (url: string, running: NodeProcess) => running.waitForOk(url, 90_000);

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

/** The JSON log lines of an output whose `msg` starts with `start`. */
const logLines = (output: string, start: string) =>
  output
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as { time: number; msg: string; durationMs?: number })
    .filter(({ msg }) => msg.startsWith(start));

/** Signs in as the seeded admin and uploads an image; answers its signed URL (`/img/…`). */
async function uploadImage(backend: string): Promise<string> {
  const login = await fetch(`${backend}/api/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ ...ADMIN, device_name: 'process test' }),
  });
  expect(login.status).toBe(200);
  const { token } = (await login.json()) as { token: string };
  const form = new FormData();
  form.append('image', new Blob([PNG], { type: 'image/png' }), 'dot.png');
  const upload = await fetch(`${backend}/api/images`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${token}`, 'X-Viewing-As': 'traveller' },
    body: form,
  });
  expect(upload.status).toBe(201);
  return ((await upload.json()) as { url: string }).url;
}

/** Every process under `pid` (Linux /proc), by pid. */
function descendantsOf(pid: number): number[] {
  const parents = new Map<number, number[]>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      // `pid (comm) state ppid …`; comm may hold spaces and parentheses, so read after the last `)`.
      const fields = readFileSync(`/proc/${entry}/stat`, 'utf8').split(') ').pop()!.split(' ');
      const parent = Number(fields[1]);
      parents.set(parent, [...(parents.get(parent) ?? []), Number(entry)]);
    } catch {
      // exited meanwhile
    }
  }
  const found: number[] = [];
  const visit = (parent: number) =>
    (parents.get(parent) ?? []).forEach((child) => {
      found.push(child);
      visit(child);
    });
  visit(pid);
  return found;
}

/** Whether `pid` still runs (an exited process not yet reaped, a zombie, does not). */
function isRunning(pid: number): boolean {
  try {
    return readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ').pop()!.split(' ')[0] !== 'Z';
  } catch {
    return false;
  }
}

/** A process's command line, to name one left running. */
function commandOf(pid: number): string {
  try {
    return `${pid}: ${readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ').trim()}`;
  } catch {
    return `${pid}`;
  }
}

/** Whether something accepts connections on the loopback port. */
const listening = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });

describe('pnpm start (both services, embedded databases)', () => {
  let dataDir: string;
  let env: Record<string, string>;
  let backend: string;
  let search: string;
  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'rt-start-all-'));
    env = {
      DATA_DIR: dataDir,
      BACKEND_PORT: String(await freePort()),
      SEARCH_PORT: String(await freePort()),
      DATABASE_URL: '',
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
      IMGPROXY_KEY: '',
      IMGPROXY_SALT: '',
    };
    backend = `http://127.0.0.1:${env.BACKEND_PORT}`;
    search = `http://127.0.0.1:${env.SEARCH_PORT}`;
  });
  afterAll(async () => {
    await NodeProcess.stopAll();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('serves both services, stops on SIGTERM, and keeps the embedded data and image links across a restart', async () => {
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
    // Both services' API docs, in a local run by default.
    await waitFor(`${backend}/api/docs`, first);
    await waitFor(`${search}/docs`, first);
    expect(
      ((await (await waitFor(`${search}/openapi.json`, first)).json()) as { openapi: string }).openapi,
    ).toBe('3.1.0');
    expect(first.output()).toMatch(/Migrations applied: [1-9]/);
    // The demo's invitations, written by the local mail transport beside the embedded database.
    expect(await waitForFiles(join(dataDir, 'mail'), /\.eml$/, first)).not.toEqual([]);
    // The startup reindex logs its start when it starts (not when the buffered lines are flushed).
    const [started] = logLines(first.output(), 'Reindex started (startup)');
    const [succeeded] = logLines(first.output(), 'Reindex succeeded');
    expect(succeeded.time - started.time).toBeGreaterThanOrEqual(succeeded.durationMs! - 50);
    // The local image signing pair: drawn once into DATA_DIR, readable by its owner only.
    const image = await uploadImage(backend);
    expect((await fetch(`${backend}${image}`)).status).toBe(200);
    const keyFile = join(dataDir, 'keys', 'imgproxy.json');
    expect((await stat(keyFile)).mode & 0o777).toBe(0o600);
    const keys = await readFile(keyFile, 'utf8');

    first.child.kill('SIGTERM');
    expect((await first.exited).code).toBe(0);
    expect(first.output().match(/"msg":"Closed"/g)).toHaveLength(2);

    const second = startAll(env);
    await waitFor(`${backend}/health/ready`, second);
    await waitFor(`${search}/health/ready`, second);
    expect(second.output()).not.toMatch(/Migrations applied: [1-9]/);
    // A link handed out before the restart still answers.
    const again = await fetch(`${backend}${image}`);
    expect(again.status).toBe(200);
    expect(again.headers.get('content-type')).toBe('image/png');
    expect(await readFile(keyFile, 'utf8')).toBe(keys);
    second.child.kill('SIGINT');
    expect((await second.exited).code).toBe(0);
  }, 300_000);

  it('stops everything when `pnpm start` itself gets SIGTERM (pnpm does not pass it on)', async () => {
    // pnpm as the README runs it, as its own process: pnpm, its shell, the script, the services.
    const pnpm: ChildProcess = spawn('pnpm', ['start'], {
      cwd: root,
      env: { ...process.env, LOG_LEVEL: 'info', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    pnpm.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    pnpm.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    // Closed once every process holding pnpm's output pipes (the script, the services) has exited.
    const closed = new Promise<void>((resolve) => pnpm.once('close', () => resolve()));
    let tree: number[] = [];
    try {
      const running = { alive: () => pnpm.exitCode === null && pnpm.signalCode === null };
      for (const url of [`${backend}/health/ready`, `${search}/health/ready`]) {
        const deadline = Date.now() + 90_000;
        while (
          !(await fetch(url)
            .then((response) => response.ok)
            .catch(() => false))
        ) {
          if (!running.alive() || Date.now() > deadline) throw new Error(`${url} did not answer:\n${output}`);
          await new Promise((resolve) => setTimeout(resolve, 250));
        }
      }
      tree = descendantsOf(pnpm.pid!);
      // the script, both services and their embedded databases at least
      expect(tree.length).toBeGreaterThanOrEqual(5);

      pnpm.kill('SIGTERM');
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([
        closed,
        new Promise((_, reject) => {
          timer = setTimeout(() => reject(new Error(`still running 60 s after SIGTERM:\n${output}`)), 60_000);
        }),
      ]).finally(() => clearTimeout(timer));
      // The pipes close as the last holder exits; a process of the tree may still be finishing its
      // exit then (seen once on 2 loaded cores): it gets a few seconds, then it is named.
      const exitDeadline = Date.now() + 10_000;
      while (tree.some(isRunning) && Date.now() < exitDeadline) {
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(tree.filter(isRunning).map(commandOf)).toEqual([]);
      expect(await listening(Number(env.BACKEND_PORT))).toBe(false);
      expect(await listening(Number(env.SEARCH_PORT))).toBe(false);
      // Gracefully: both services closed, and the script said why it stopped.
      expect(output.match(/"msg":"Closed"/g)).toHaveLength(2);
      // pnpm passes its SIGTERM on to the script (`exec` in package.json), or leaves it behind
      expect(output).toMatch(/\[start\] (SIGTERM|the parent process \(pid \d+\) is gone): stopping/);
      expect(output).toContain('[start] both services stopped');
      // a clean stop: pnpm reports no failure of its script
      expect(output).not.toContain('ELIFECYCLE');
    } finally {
      // on a failure, nothing is left behind either
      for (const pid of [...tree, ...descendantsOf(pnpm.pid!)].filter(isRunning))
        process.kill(pid, 'SIGKILL');
      if (pnpm.exitCode === null && pnpm.signalCode === null) pnpm.kill('SIGKILL');
    }
  }, 180_000);
});
