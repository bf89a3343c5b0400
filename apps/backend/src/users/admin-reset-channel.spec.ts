import { mkdtempSync, statSync, mkdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Server } from 'node:net';
import { adminResetSocketOf, listenForAdminResets, requestAdminReset } from './admin-reset-channel';

/** The socket's mode as created, before the channel's own chmod (the moment a race would use). */
const modesBeforeChmod: number[] = [];
jest.mock('node:fs/promises', () => {
  const actual = jest.requireActual<typeof import('node:fs/promises')>('node:fs/promises');
  return {
    ...actual,
    chmod: async (path: string, mode: number) => {
      modesBeforeChmod.push((await actual.stat(path)).mode & 0o777);
      return actual.chmod(path, mode);
    },
  };
});

describe('the admin-reset socket', () => {
  let root: string;
  let dataDir: string;
  let server: Server | undefined;

  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'admin-reset-'));
    dataDir = join(root, 'data');
    mkdirSync(dataDir);
  });
  afterEach(async () => {
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
    server = undefined;
    rmSync(root, { recursive: true, force: true });
  });

  it('is created readable and writable by its owner only, and leaves the process umask as it was', async () => {
    const umask = process.umask(0o022);
    try {
      modesBeforeChmod.length = 0;
      server = await listenForAdminResets(dataDir, (input) =>
        Promise.resolve({ email: input.email, outcome: 'reset' }),
      );
      // owner-only from its creation, not only after the chmod
      expect(modesBeforeChmod).toEqual([0o600]);
      expect(statSync(adminResetSocketOf(dataDir)).mode & 0o777).toBe(0o600);
      expect(process.umask(0o022)).toBe(0o022);
    } finally {
      process.umask(umask);
    }
  });

  it("answers a request with the reset's result, and its failure as an error", async () => {
    server = await listenForAdminResets(dataDir, (input) =>
      input.email === 'admin@example.com'
        ? Promise.resolve({ email: input.email, outcome: 'unchanged' })
        : Promise.reject(new Error('not an address')),
    );
    await expect(requestAdminReset(dataDir, { email: 'admin@example.com' })).resolves.toEqual({
      email: 'admin@example.com',
      outcome: 'unchanged',
    });
    await expect(requestAdminReset(dataDir, { email: 'x' })).rejects.toThrow('not an address');
  });

  it('finds no service when nothing listens', async () => {
    await expect(requestAdminReset(dataDir, { email: 'admin@example.com' })).resolves.toBeNull();
  });
});
