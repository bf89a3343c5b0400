#!/usr/bin/env node
// @ts-check
/**
 * Standalone embedded-Postgres server: PGlite + pglite-socket in its own
 * process. Plain ESM JavaScript (type-checked via JSDoc) so that it runs with
 * bare `node`, needs no build step and never goes through ts-jest / Jest's
 * module registry.
 *
 * Usage (normally via EmbeddedPostgresProcess, but works by hand too):
 *   node pglite-server.mjs [--data-dir DIR] [--load-data-dir DUMP.tar.gz]
 *                          [--vector] [--unaccent] [--pg_trgm] [--fuzzystrmatch] [--cube] [--earthdistance]
 *                          [--host 127.0.0.1] [--port 0] [--max-connections 1]
 *                          [--relaxed-durability] [--debug]
 *
 * Protocol with the parent:
 *   - stdout: exactly one JSON line when listening:
 *       {"event":"ready","host":"127.0.0.1","port":43210,"url":"postgres://..."}
 *     Anything else goes to stderr.
 *   - SIGTERM / SIGINT: clean shutdown (socket closed, Postgres checkpointed),
 *     then exit code 0.
 *   - If started with an IPC channel (child_process.fork):
 *       parent -> {type:'dump', id, compress?: boolean}
 *                                    child -> {type:'dump', id, data: Uint8Array}
 *                                    or     {type:'dump', id, error: string}
 *       parent -> {type:'stop'}      same as SIGTERM
 *     and the child shuts down by itself when the channel disconnects
 *     (parent exited or crashed), so no orphaned servers are left behind.
 */
import { existsSync } from 'node:fs';
import { mkdir, open, readFile, rm } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';

import { PGlite } from '@electric-sql/pglite';
import { cube } from '@electric-sql/pglite/contrib/cube';
import { earthdistance } from '@electric-sql/pglite/contrib/earthdistance';
import { fuzzystrmatch } from '@electric-sql/pglite/contrib/fuzzystrmatch';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { unaccent } from '@electric-sql/pglite/contrib/unaccent';
import { vector } from '@electric-sql/pglite-pgvector';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';

const { values: args } = parseArgs({
  options: {
    'data-dir': { type: 'string' },
    'load-data-dir': { type: 'string' },
    vector: { type: 'boolean', default: false },
    unaccent: { type: 'boolean', default: false },
    pg_trgm: { type: 'boolean', default: false },
    fuzzystrmatch: { type: 'boolean', default: false },
    cube: { type: 'boolean', default: false },
    earthdistance: { type: 'boolean', default: false },
    host: { type: 'string', default: '127.0.0.1' },
    port: { type: 'string', default: '0' },
    'max-connections': { type: 'string', default: '1' },
    'idle-timeout': { type: 'string', default: '0' },
    'relaxed-durability': { type: 'boolean', default: false },
    debug: { type: 'boolean', default: false },
  },
  strict: true,
});

/** @param {unknown[]} parts */
const log = (...parts) => console.error('[pglite-server]', ...parts);

/**
 * Exclusive `<dataDir>.lock` file (see embedded-postgres.ts for rationale).
 * @param {string} dataDir
 * @returns {Promise<() => Promise<void>>}
 */
async function acquireDataDirLock(dataDir) {
  const lockPath = join(dirname(dataDir), `${basename(dataDir)}.lock`);
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const handle = await open(lockPath, 'wx');
      await handle.writeFile(String(process.pid));
      await handle.close();
      return () => rm(lockPath, { force: true });
    } catch (error) {
      if (/** @type {NodeJS.ErrnoException} */ (error).code !== 'EEXIST') throw error;
      const owner = Number.parseInt(await readFile(lockPath, 'utf8').catch(() => ''), 10);
      let alive = owner === process.pid;
      if (Number.isInteger(owner) && !alive) {
        try {
          process.kill(owner, 0);
          alive = true;
        } catch (e) {
          alive = /** @type {NodeJS.ErrnoException} */ (e).code === 'EPERM';
        }
      }
      if (alive) throw new Error(`Data dir ${dataDir} is in use by process ${owner} (lock file ${lockPath})`);
      await rm(lockPath, { force: true });
    }
  }
  throw new Error(`Could not lock data dir ${dataDir}`);
}

async function main() {
  const dataDir = args['data-dir'] ? resolve(args['data-dir']) : undefined;
  /** @type {() => Promise<void>} */
  let releaseLock = async () => {};
  if (dataDir) {
    await mkdir(dataDir, { recursive: true });
    releaseLock = await acquireDataDirLock(dataDir);
    if (args['load-data-dir'] && existsSync(join(dataDir, 'PG_VERSION'))) {
      await releaseLock();
      throw new Error(`Cannot load a dump into ${dataDir}: it already contains a database`);
    }
  }

  /** @type {import('@electric-sql/pglite').Extensions} */
  const extensions = {};
  if (args.vector) extensions.vector = vector;
  if (args.unaccent) extensions.unaccent = unaccent;
  if (args.pg_trgm) extensions.pg_trgm = pg_trgm;
  if (args.fuzzystrmatch) extensions.fuzzystrmatch = fuzzystrmatch;
  if (args.cube || args.earthdistance) extensions.cube = cube;
  if (args.earthdistance) extensions.earthdistance = earthdistance;

  let loadDataDir;
  if (args['load-data-dir']) {
    const bytes = await readFile(args['load-data-dir']);
    const gzip = bytes[0] === 0x1f && bytes[1] === 0x8b;
    loadDataDir = new Blob([bytes], { type: gzip ? 'application/x-gzip' : 'application/x-tar' });
  }

  const db = await PGlite.create({
    dataDir,
    extensions,
    loadDataDir,
    relaxedDurability: args['relaxed-durability'],
  });

  const server = new PGLiteSocketServer({
    db,
    host: args.host,
    port: Number(args.port),
    maxConnections: Number(args['max-connections']),
    idleTimeout: Number(args['idle-timeout']),
    debug: args.debug,
  });
  let port = Number(args.port);
  server.addEventListener('listening', (event) => {
    const detail = /** @type {CustomEvent<{port?: number}>} */ (event).detail;
    if (detail?.port) port = detail.port;
  });
  await server.start();

  /** @type {Promise<void> | undefined} */
  let stopping;
  /** @param {string} reason */
  const stop = (reason) => {
    stopping ??= (async () => {
      if (args.debug) log(`stopping (${reason})`);
      await server.stop();
      await new Promise((done) => setImmediate(done)); // let pending ROLLBACKs enqueue
      if (!db.closed) await db.close();
      await releaseLock();
    })().then(
      () => process.exit(0),
      (error) => {
        log('error while stopping:', error);
        process.exit(1);
      },
    );
    return stopping;
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));

  if (process.send) {
    process.on('disconnect', () => void stop('parent disconnected'));
    process.on('message', async (/** @type {any} */ message) => {
      if (message?.type === 'stop') return void stop('stop message');
      if (message?.type === 'dump') {
        try {
          const blob = await db.dumpDataDir(message.compress === false ? 'none' : 'gzip');
          process.send?.({ type: 'dump', id: message.id, data: new Uint8Array(await blob.arrayBuffer()) });
        } catch (error) {
          process.send?.({ type: 'dump', id: message.id, error: String(error) });
        }
      }
    });
  }

  const host = args.host;
  const url = `postgres://postgres:postgres@${host}:${port}/postgres`;
  process.stdout.write(`${JSON.stringify({ event: 'ready', host, port, url, pid: process.pid })}\n`);
}

main().catch((error) => {
  log('failed to start:', error instanceof Error ? error.stack : error);
  process.exit(1);
});
