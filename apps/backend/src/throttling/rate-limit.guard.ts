import { ExecutionContext, Injectable } from '@nestjs/common';
import { ThrottlerGuard, type ThrottlerLimitDetail } from '@nestjs/throttler';
import { AppError } from '@rt/errors';

/** The throttler guard, answering a block with the shared envelope: 429 `too_many_requests` + Retry-After. */
@Injectable()
export class RateLimitGuard extends ThrottlerGuard {
  protected override async throwThrottlingException(
    _context: ExecutionContext,
    detail: ThrottlerLimitDetail,
  ): Promise<void> {
    throw AppError.tooManyRequests(detail.timeToBlockExpire);
  }
}
