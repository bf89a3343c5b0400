import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { freePort, NodeProcess } from '@rt/testing';

/**
 * The backend's first run on its embedded database, as the built copy runs it: a start's lines say
 * what the service does (Nest's own at debug), the generated admin password is one JSON line and a
 * file readable by its owner alone that goes at the first sign-in, `user:create-admin` resets the
 * admin while the service holds the database (D-80), and a busy port stops a start in one line
 * before anything is created.
 */
const backendDir = join(__dirname, '..', 'apps', 'backend');
const run = promisify(execFile);

const login = (base: string, password: string) =>
  fetch(`${base}/api/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ email: 'admin@example.com', password, device_name: 'first run' }),
  });

describe('the backend first run (embedded database)', () => {
  let root: string;
  let env: Record<string, string>;
  let base: string;
  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'rt-first-run-'));
    const port = await freePort();
    env = {
      DATA_DIR: join(root, 'backend'),
      PORT: String(port),
      DATABASE_URL: '',
      ADMIN_EMAIL: '',
      ADMIN_PASSWORD: '',
      IMGPROXY_KEY: '',
      IMGPROXY_SALT: '',
      LOG_LEVEL: 'info',
      LOG_FORMAT: 'json',
    };
    base = `http://127.0.0.1:${port}`;
  });
  afterAll(async () => {
    await NodeProcess.stopAll();
    await rm(root, { recursive: true, force: true });
  });

  it('logs what the service does, keeps the password in a 0600 file until sign-in, and resets the admin while running', async () => {
    const backend = new NodeProcess({ name: 'backend', script: 'dist/main.js', cwd: backendDir, env });
    await backend.waitForOk(`${base}/health/ready`, 90_000);
    const lines = backend
      .output()
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as { msg: string; context?: string; level: number });
    // No framework line at info; the first lines are the service's own.
    expect(
      lines.filter(({ context }) =>
        ['InstanceLoader', 'RoutesResolver', 'RouterExplorer'].includes(context!),
      ),
    ).toEqual([]);
    expect(lines[0].msg).toMatch(/^Embedded PostgreSQL with its data in /);
    const notices = lines.filter(({ msg }) => msg.startsWith('Super-admin created'));
    expect(notices).toHaveLength(1);
    const password = /generated password (\S+) /.exec(notices[0].msg)![1];
    expect(notices[0].msg).toContain('pnpm --filter backend user:create-admin');
    const file = join(root, 'admin-password.txt');
    expect(notices[0].msg).toContain(file);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect(await readFile(file, 'utf8')).toBe(`admin@example.com\n${password}\n`);

    // The first sign-in ends the file.
    const signedIn = await login(base, password);
    expect(signedIn.status).toBe(200);
    const { token } = (await signedIn.json()) as { token: string };
    await expect(stat(file)).rejects.toThrow();

    // The reset command, while the service holds the embedded database.
    const { stdout } = await run(process.execPath, ['dist/cli/create-admin.js'], {
      cwd: backendDir,
      env: { ...process.env, ...env, LOG_FORMAT: '' },
    });
    expect(stdout).toMatch(/^Super-admin reset: admin@example.com$/m);
    const reset = /Password \(shown only this once\): (\S+)/.exec(stdout)![1];
    expect((await login(base, password)).status).toBe(422);
    expect((await login(base, reset)).status).toBe(200);
    // Signed out everywhere, as a reset by link (D-26).
    const me = await fetch(`${base}/api/user`, { headers: { Authorization: `Bearer ${token}` } });
    expect(me.status).toBe(401);

    // A second start on the same port: one line, and nothing opened.
    const second = new NodeProcess({
      name: 'backend on a busy port',
      script: 'dist/main.js',
      cwd: backendDir,
      env: { ...env, DATA_DIR: join(root, 'second') },
    });
    expect((await second.exited).code).toBe(1);
    expect(second.output().trim()).toBe(
      `Cannot start: port ${env.PORT} on 127.0.0.1 is in use by another process; stop that process or set PORT to another port.`,
    );
    await expect(stat(join(root, 'second'))).rejects.toThrow();
  }, 180_000);
});
