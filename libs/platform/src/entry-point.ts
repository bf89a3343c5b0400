import { createServer } from 'node:net';
import type { DynamicModule } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { Logger } from 'nestjs-pino';
import { ConfigError } from './config';
import { NEST_APP_OPTIONS } from './http-app';
import { closeOnSignals } from './shutdown';

/** A start that cannot go on for a reason its message says in full (printed without a stack). */
export class StartRefusedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'StartRefusedError';
  }
}

/**
 * Runs an entry point (a service's `main.ts`, its commands): when it fails, the error is printed
 * (a configuration error as its message alone, the settings to fix) and the process exits with 1.
 */
export function runEntryPoint(main: () => Promise<void>): void {
  main().catch((error: unknown) => {
    const said = error instanceof ConfigError || error instanceof StartRefusedError;
    console.error(said ? error.message : error);
    process.exit(1);
  });
}

/**
 * How a service's HTTP app is built on the database its entry point opened (the `build` of
 * `startApp`): the app module made for that connection, with NEST_APP_OPTIONS, then `configure`
 * (the service's HTTP settings).
 */
export function httpAppOn<Connection>(
  module: (connection: Connection) => DynamicModule,
  configure: (app: NestExpressApplication) => void,
): (connection: Connection) => Promise<NestExpressApplication> {
  return async (connection) => {
    const app = await NestFactory.create<NestExpressApplication>(module(connection), NEST_APP_OPTIONS);
    configure(app);
    return app;
  };
}

/**
 * The origin a service listening on `host` (its HOST) and `port` is reached at, for its start-up
 * line: `http://localhost:<port>` on loopback (the default), the address itself otherwise.
 */
export function listeningOrigin(host: string, port: number): string {
  if (['127.0.0.1', '::1', 'localhost'].includes(host)) return `http://localhost:${port}`;
  return `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
}

/** What `startApp` answers a service, as far as serving it goes. */
export interface StartedService {
  app: NestExpressApplication;
  database: { embedded: boolean; dataDir?: string; close(): Promise<void> };
  applied: unknown[];
}

/**
 * A started service's logger, its graceful shutdown on SIGTERM and SIGINT (the app, then the
 * database, then `flush`: the spans still buffered), and the start's log lines (where the embedded
 * database keeps its data, the migrations applied when `migrated`).
 */
export function serveStarted(
  { app, database, applied }: StartedService,
  options: { graceMs: number; migrated: boolean; flush: () => Promise<void> },
): Logger {
  const logger = app.get(Logger);
  closeOnSignals(app, {
    graceMs: options.graceMs,
    logger,
    afterClose: () => database.close(),
    flush: options.flush,
  });
  if (database.embedded) logger.log(`Embedded PostgreSQL with its data in ${database.dataDir}`, 'Database');
  if (options.migrated) logger.log(`Migrations applied: ${applied.length}`, 'Database');
  return logger;
}

/**
 * Stops a start whose port is taken before it opens or seeds anything: a StartRefusedError,
 * printed as one line by runEntryPoint (rather than Nest's `EADDRINUSE` stack after the start-up work). The port
 * is tried, then let go: a service started in the instant between still fails at `listen`.
 */
export async function refuseBusyPort(host: string, port: number, setting = 'PORT'): Promise<void> {
  const busy = await new Promise<NodeJS.ErrnoException | null>((resolve) => {
    const probe = createServer();
    probe.once('error', (error: NodeJS.ErrnoException) => resolve(error));
    probe.listen({ port, host, exclusive: true }, () => probe.close(() => resolve(null)));
  });
  if (!busy) return;
  const why =
    busy.code === 'EADDRINUSE'
      ? 'is in use by another process'
      : `cannot be listened on (${busy.code ?? busy.message})`;
  throw new StartRefusedError(
    `Cannot start: port ${port} on ${host} ${why}; stop that process or set ${setting} to another port.`,
  );
}
