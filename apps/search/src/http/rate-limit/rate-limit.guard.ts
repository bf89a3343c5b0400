import { Injectable, Optional } from '@nestjs/common';
import type { CanActivate, ExecutionContext } from '@nestjs/common';
import { AppError } from '@rt/errors';
import type { Request } from 'express';
import { SearchMetrics } from '../../metrics/search-metrics';
import { clientKeyOf } from './client-key';
import { RateLimitSettings } from './rate-limit.settings';
import { TokenBuckets } from './token-buckets';

/**
 * The flood limit of the listing and search route (docs/decisions.md D-73): each client (`req.ip`:
 * the address the trusted proxy saw, TRUST_PROXY; an IPv6 client by its /64, clientKeyOf) takes a
 * token from its bucket in this replica's memory; an empty bucket answers 429 `too_many_requests` with `Retry-After`
 * (seconds), before the query is even parsed. Off when SEARCH_RATE_LIMIT is off (by default with
 * APP_ENV=local). Health, metrics and the root are never limited: the guard sits on the
 * controller of GET /travels only.
 */
@Injectable()
export class RateLimitGuard implements CanActivate {
  private readonly buckets?: TokenBuckets;

  constructor(
    settings: RateLimitSettings,
    @Optional() private readonly metrics?: SearchMetrics,
  ) {
    if (settings.rateLimitEnabled) {
      this.buckets = new TokenBuckets(
        settings.SEARCH_RATE_LIMIT_BURST,
        settings.SEARCH_RATE_LIMIT_PER_SECOND,
      );
    }
  }

  canActivate(context: ExecutionContext): boolean {
    if (!this.buckets) return true;
    const request = context.switchToHttp().getRequest<Request>();
    const answer = this.buckets.take(clientKeyOf(request.ip ?? request.socket.remoteAddress ?? 'unknown'));
    if (answer.taken) return true;
    this.metrics?.rateLimited.inc();
    throw AppError.tooManyRequests(answer.retryAfterSeconds);
  }
}
