import { applyDecorators, SetMetadata, UseGuards } from '@nestjs/common';
import { ApiTooManyRequestsResponse } from '../common/api-responses';
import { RateLimitGuard } from './rate-limit.guard';
import { RATE_LIMIT_POLICY, ThrottlePolicy } from './throttle-policies';

const descriptions: Record<ThrottlePolicy, string> = {
  login: 'too many failed sign-ins for this email from this address.',
  'forgot-password': 'too many reset requests for this email address.',
  'reset-password': 'too many reset attempts for this email address.',
};

/** Puts a route under one of the throttle policies (src/throttling/throttle-policies.ts). */
export const RateLimit = (policy: ThrottlePolicy) =>
  applyDecorators(
    SetMetadata(RATE_LIMIT_POLICY, policy),
    UseGuards(RateLimitGuard),
    ApiTooManyRequestsResponse(descriptions[policy]),
  );
