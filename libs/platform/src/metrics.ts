import { Controller, Get, Header, Inject, Injectable, Module, Optional } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { NextFunction, Request, Response } from 'express';
import { collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import { DataSource } from 'typeorm';
import { serverSpanRouteSetter } from '@rt/telemetry';

/** One Prometheus registry per service: process metrics and the HTTP request histogram. */
@Injectable()
export class MetricsService {
  readonly registry = new Registry();
  readonly httpRequestDuration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'Duration of HTTP requests by method, route template and status.',
    labelNames: ['method', 'route', 'status_code'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [this.registry],
  });

  constructor() {
    collectDefaultMetrics({ register: this.registry });
  }

  /**
   * Express middleware: times every request and labels it with the route template
   * (`/api/tour/:id`, never the raw URL, so label values stay few). Unmatched paths share one label.
   * The same template names the request's span when it is traced.
   */
  middleware() {
    return (req: Request, res: Response, next: NextFunction): void => {
      const stop = this.httpRequestDuration.startTimer();
      const nameServerSpan = serverSpanRouteSetter();
      res.once('finish', () => {
        const route = routeLabelOf(req, res);
        stop({ method: req.method, route, status_code: String(res.statusCode) });
        nameServerSpan(route);
      });
      next();
    };
  }
}

/**
 * The route template Express matched. Nest answers unknown paths from a catch-all (`/api/{*path}`),
 * so a 404 from a splat route counts as unmatched too.
 */
function routeLabelOf(req: Request, res: Response): string {
  const routePath = (req.route as { path?: unknown } | undefined)?.path;
  if (typeof routePath !== 'string') return 'unmatched';
  if (res.statusCode === 404 && routePath.includes('{*')) return 'unmatched';
  return `${req.baseUrl}${routePath}`;
}

/** What the pool of node-postgres (TypeORM's `postgres` driver) tells about itself. */
interface PgPool {
  totalCount: number;
  idleCount: number;
  waitingCount: number;
  options?: { max?: number };
}

/**
 * Pools beside the app's default DataSource, by name (the search service's read replica: `read`),
 * provided by the app under this token; their series carry `pool="<name>"`, the default pool's none.
 */
export const EXTRA_DATABASE_POOLS = Symbol('EXTRA_DATABASE_POOLS');

/**
 * The database pools, read at each scrape: `db_pool_connections{state="busy|idle"}`,
 * `db_pool_max_connections` (`DB_POOL_SIZE`) and `db_pool_waiting_requests` (queries waiting for a
 * connection: a pool too small, or the database too slow). The default DataSource's series have no
 * `pool` label (as before there were several); an extra pool's have `pool="<name>"`. Without a
 * DataSource (a module tested alone), nothing is registered.
 */
@Injectable()
export class DatabasePoolMetrics {
  constructor(
    metrics: MetricsService,
    @Optional() dataSource?: DataSource,
    @Optional() @Inject(EXTRA_DATABASE_POOLS) extraPools?: Record<string, DataSource>,
  ) {
    if (!dataSource) return;
    const poolOf = (source: DataSource): PgPool | undefined =>
      (source.driver as unknown as { master?: PgPool }).master;
    const pools: { labels: { pool?: string }; pool: () => PgPool | undefined }[] = [
      { labels: {}, pool: () => poolOf(dataSource) },
      ...Object.entries(extraPools ?? {}).map(([name, source]) => ({
        labels: { pool: name },
        pool: () => poolOf(source),
      })),
    ];
    const registers = [metrics.registry];
    new Gauge({
      name: 'db_pool_connections',
      help: 'Connections of the database pool by state: busy (running a query or a transaction) or idle.',
      labelNames: ['state', 'pool'],
      registers,
      collect() {
        for (const { labels, pool } of pools) {
          const current = pool();
          this.set({ ...labels, state: 'busy' }, current ? current.totalCount - current.idleCount : 0);
          this.set({ ...labels, state: 'idle' }, current?.idleCount ?? 0);
        }
      },
    });
    new Gauge({
      name: 'db_pool_max_connections',
      help: 'Connections the database pool may open (DB_POOL_SIZE).',
      labelNames: ['pool'],
      registers,
      collect() {
        for (const { labels, pool } of pools) this.set(labels, pool()?.options?.max ?? 0);
      },
    });
    new Gauge({
      name: 'db_pool_waiting_requests',
      help: 'Queries waiting for a connection of the database pool.',
      labelNames: ['pool'],
      registers,
      collect() {
        for (const { labels, pool } of pools) this.set(labels, pool()?.waitingCount ?? 0);
      },
    });
  }
}

@ApiExcludeController()
@Controller('metrics')
export class MetricsController {
  constructor(private readonly metrics: MetricsService) {}

  @Get()
  @Header('Content-Type', 'text/plain; version=0.0.4; charset=utf-8')
  @Header('Cache-Control', 'no-store')
  scrape(): Promise<string> {
    return this.metrics.registry.metrics();
  }
}

@Module({
  controllers: [MetricsController],
  providers: [MetricsService, DatabasePoolMetrics],
  exports: [MetricsService],
})
export class MetricsModule {}
