import type { INestApplication, LoggerService } from '@nestjs/common';
import type { Server } from 'node:http';

export interface ShutdownOptions {
  /** How long in-flight requests may run after the signal before their connections are cut. */
  graceMs: number;
  logger: LoggerService;
  /** Runs after the app is closed (pool included): stops the embedded database. */
  afterClose?: () => Promise<void>;
  /** Runs last: exports the spans still buffered (the shutdown's own included). */
  flush?: () => Promise<void>;
}

/**
 * Graceful shutdown on SIGTERM and SIGINT: stop accepting connections, let in-flight requests
 * finish (cut after `graceMs`), close the app and its pool, then the embedded database, and export
 * the spans still buffered.
 */
export function closeOnSignals(app: INestApplication, options: ShutdownOptions): void {
  let closing = false;
  const shutdown = async (signal: NodeJS.Signals): Promise<void> => {
    if (closing) return;
    closing = true;
    options.logger.log(`${signal} received: closing`, 'Shutdown');
    const server = app.getHttpServer() as Server;
    const cut = setTimeout(() => server.closeAllConnections(), options.graceMs);
    cut.unref();
    let exitCode = 0;
    try {
      await app.close();
      await options.afterClose?.();
    } catch (error) {
      exitCode = 1;
      options.logger.error(`Shutdown failed: ${String(error)}`, undefined, 'Shutdown');
    }
    options.logger.log('Closed', 'Shutdown');
    try {
      await options.flush?.();
    } catch (error) {
      options.logger.warn(`Spans not exported at shutdown: ${String(error)}`, 'Shutdown');
    }
    process.exit(exitCode);
  };
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.once(signal, (received) => void shutdown(received));
  }
}
