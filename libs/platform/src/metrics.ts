import { Controller, Get, Header, Injectable, Module } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { NextFunction, Request, Response } from 'express';
import { collectDefaultMetrics, Histogram, Registry } from 'prom-client';

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
   */
  middleware() {
    return (req: Request, res: Response, next: NextFunction): void => {
      const stop = this.httpRequestDuration.startTimer();
      res.once('finish', () => {
        stop({ method: req.method, route: routeLabelOf(req, res), status_code: String(res.statusCode) });
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
  providers: [MetricsService],
  exports: [MetricsService],
})
export class MetricsModule {}
