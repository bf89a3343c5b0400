import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { BUILT, ServiceProcess } from '@rt/testing';

/**
 * Secrets never reach the logs (D-17): the built backend runs as a process at the most verbose
 * level while a user signs in (right and wrong passwords), uses the token, asks for a password
 * reset, follows the emailed link and sets a new password, and the demo managers are invited;
 * then everything the process wrote is searched for each password, token and link token.
 */
const ADMIN_EMAIL = 'secrets.admin@example.com';
const ADMIN_PASSWORD = 'first admin passphrase 1';
const WRONG_PASSWORD = 'wrong passphrase, guessed';
const NEW_PASSWORD = 'second admin passphrase 2';

describe('the backend keeps secrets out of its logs', () => {
  let workDir: string;
  let backend: ServiceProcess;
  let base: string;

  beforeAll(async () => {
    workDir = await mkdtemp(join(tmpdir(), 'rt-log-secrecy-'));
    backend = await ServiceProcess.start({
      name: 'backend',
      script: BUILT.backendMain,
      env: {
        DATABASE_URL: '',
        DATA_DIR: join(workDir, 'database'),
        MAIL_DIR: join(workDir, 'mail'),
        IMAGE_DIR: join(workDir, 'images'),
        // unset: the local run draws its image signing pair into DATA_DIR's parent
        IMGPROXY_KEY: '',
        IMGPROXY_SALT: '',
        LOG_LEVEL: 'trace',
        ADMIN_EMAIL,
        ADMIN_PASSWORD,
        MAIL_POLL_INTERVAL_MS: '100',
        PASSWORD_SCRYPT_N: '1024',
        PASSWORD_SCRYPT_P: '1',
      },
    });
    base = backend.base;
    await backend.ready(60_000);
  });

  afterAll(async () => {
    await backend.stop();
    await rm(workDir, { recursive: true, force: true });
  });

  const post = (path: string, body: unknown, token?: string) =>
    fetch(`${base}/api${path}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', ...(token ? { Authorization: `Bearer ${token}` } : {}) },
      body: JSON.stringify(body),
    });

  /** The link tokens of every email written so far (from the plain-text copies). */
  async function mailedTokens(): Promise<string[]> {
    const files = (await readdir(join(workDir, 'mail')).catch(() => [] as string[])).filter((f) =>
      f.endsWith('.txt'),
    );
    const texts = await Promise.all(files.map((file) => readFile(join(workDir, 'mail', file), 'utf8')));
    return texts.flatMap((text) => [...text.matchAll(/[?&]token=([A-Za-z0-9]+)/g)].map((match) => match[1]));
  }

  async function waitForMail(count: number): Promise<string[]> {
    for (let attempt = 0; attempt < 100; attempt++) {
      const tokens = await mailedTokens();
      if (tokens.length >= count) return tokens;
      await sleep(100);
    }
    throw new Error(`fewer than ${count} emails were written:\n${backend.output()}`);
  }

  it('logs no password, bearer token or emailed link token', async () => {
    expect(
      (await post('/login', { email: ADMIN_EMAIL, password: WRONG_PASSWORD, device_name: 'x' })).status,
    ).toBe(422);
    const login = await post('/login', {
      email: ADMIN_EMAIL,
      password: ADMIN_PASSWORD,
      device_name: 'laptop',
    });
    expect(login.status).toBe(200);
    const { token } = (await login.json()) as { token: string };
    const user = await fetch(`${base}/api/user`, { headers: { Authorization: `Bearer ${token}` } });
    expect(user.status).toBe(200);

    // The demo seed invited two managers; then the admin asks for a reset link.
    const invitations = await waitForMail(2);
    expect((await post('/forgot-password', { email: ADMIN_EMAIL })).status).toBe(204);
    const afterReset = await waitForMail(3);
    const resetToken = afterReset.find((candidate) => !invitations.includes(candidate))!;
    const reset = await post('/reset-password', {
      email: ADMIN_EMAIL,
      token: resetToken,
      password: NEW_PASSWORD,
    });
    expect(reset.status).toBe(204);
    expect(
      (await post('/login', { email: ADMIN_EMAIL, password: NEW_PASSWORD, device_name: 'x' })).status,
    ).toBe(200);

    await backend.stop();
    const output = backend.output();
    expect(output).toContain('"msg":"request completed"');
    const secrets = {
      'the admin password': ADMIN_PASSWORD,
      'a wrong password': WRONG_PASSWORD,
      'the new password': NEW_PASSWORD,
      'the bearer token': token,
      "the bearer token's secret": token.split('|')[1],
      'the reset link token': resetToken,
      ...Object.fromEntries(
        invitations.map((invitation, i) => [`invitation link token ${i + 1}`, invitation]),
      ),
    };
    // The image signing pair the local run drew into DATA_DIR (images/local-signing-keys.ts).
    const signing = JSON.parse(await readFile(join(workDir, 'keys', 'imgproxy.json'), 'utf8')) as Record<
      string,
      string
    >;
    Object.assign(secrets, {
      'the image signing key': signing.IMGPROXY_KEY,
      'its salt': signing.IMGPROXY_SALT,
    });
    const leaked = Object.entries(secrets).filter(([, secret]) => output.includes(secret));
    expect(leaked.map(([what]) => what)).toEqual([]);
  });
});
