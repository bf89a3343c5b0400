import { chmod, rm } from 'node:fs/promises';
import { connect, createServer, type Server } from 'node:net';
import { join } from 'node:path';
import type { ProvisionedSuperAdmin, SuperAdminInput } from './users.service';

/**
 * How `pnpm --filter backend user:create-admin` resets the super-admin while the embedded demo run
 * holds its database (single-process: the command cannot open it then): the running backend
 * listens on a Unix socket beside its database, readable and writable by its owner only, and does the
 * reset itself (docs/decisions.md D-80). One JSON line each way. With DATABASE_URL there is no
 * socket: the command opens the database as usual.
 */
export const ADMIN_RESET_SOCKET = 'admin-reset.sock';

/** Beside the embedded database's folder, like the image signing keys. */
export const adminResetSocketOf = (dataDir: string) => join(dataDir, '..', ADMIN_RESET_SOCKET);

type ResetAnswer = ProvisionedSuperAdmin | { error: string };

/** The running service's end: answers each request with `reset`'s result. */
export async function listenForAdminResets(
  dataDir: string,
  reset: (input: SuperAdminInput) => Promise<ProvisionedSuperAdmin>,
): Promise<Server> {
  const path = adminResetSocketOf(dataDir);
  // A socket file left by a run that did not stop cleanly.
  await rm(path, { force: true });
  const server = createServer((socket) => {
    let received = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      received += chunk;
      if (!received.includes('\n') || received.length > 4096) return;
      const answer = (async (): Promise<ResetAnswer> => {
        try {
          const request = JSON.parse(received.split('\n')[0]) as Partial<SuperAdminInput>;
          if (typeof request.email !== 'string') return { error: 'no email in the request' };
          return await reset({
            email: request.email,
            ...(typeof request.password === 'string' ? { password: request.password } : {}),
          });
        } catch (error) {
          return { error: error instanceof Error ? error.message : String(error) };
        }
      })();
      void answer.then((result) => socket.end(`${JSON.stringify(result)}\n`));
    });
    socket.on('error', () => socket.destroy());
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    // The socket is created owner-only: a chmod after listen would leave a moment in which any local
    // user could connect. listen binds a path synchronously, so the umask is restored right after.
    const umask = process.umask(0o177);
    try {
      server.listen(path, () => resolve());
    } finally {
      process.umask(umask);
    }
  });
  await chmod(path, 0o600);
  server.unref();
  return server;
}

/**
 * The command's end: the running service's answer, or null when no service listens (no socket, or
 * one left behind by a stopped run): the command then opens the database itself.
 */
export function requestAdminReset(
  dataDir: string,
  input: SuperAdminInput,
): Promise<ProvisionedSuperAdmin | null> {
  return new Promise((resolve, reject) => {
    const socket = connect(adminResetSocketOf(dataDir));
    let received = '';
    let connected = false;
    socket.setEncoding('utf8');
    socket.once('connect', () => {
      connected = true;
      socket.write(`${JSON.stringify(input)}\n`);
    });
    socket.on('data', (chunk: string) => (received += chunk));
    socket.once('error', (error) => (connected ? reject(error) : resolve(null)));
    socket.once('end', () => {
      const answer = JSON.parse(received) as ResetAnswer;
      if ('error' in answer) reject(new Error(answer.error));
      else resolve(answer);
    });
  });
}
