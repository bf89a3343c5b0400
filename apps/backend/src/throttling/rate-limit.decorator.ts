import { applyDecorators, SetMetadata, UseGuards } from '@nestjs/common';
import { ApiTooManyRequestsResponse } from '../common/api-responses';
import { RateLimitGuard } from './rate-limit.guard';
import { RATE_LIMIT_POLICY, ThrottlePolicy } from './throttle-policies';

const descriptions: Record<ThrottlePolicy, string> = {
  login:
    'too many failed sign-ins in the window for this email from this client address, or from this ' +
    'address whatever the email. Every sign-in of the blocked email and address (or address) is ' +
    'refused, a correct password included, until `Retry-After` has passed. Only failures count; a ' +
    'successful sign-in clears those of its email and address.',
  'forgot-password':
    'too many reset requests in the window for this email from this client address, or from this ' +
    'address whatever the email (every request counts). Requests for the same email from other ' +
    'addresses are not affected.',
  'reset-password':
    'too many reset attempts in the window for this email from this client address, or from this ' +
    'address whatever the email (every attempt counts). Attempts for the same email from other ' +
    'addresses are not affected.',
  signup:
    'too many signups in the window from this client address (every call counts, whatever the ' +
    'contact email).',
  claim:
    'too many claims in the window by this user (every call counts, found or not), or from this ' +
    'client address whatever the user.',
};

/** Puts a route under one of the throttle policies (src/throttling/throttle-policies.ts). */
export const RateLimit = (policy: ThrottlePolicy) =>
  applyDecorators(
    SetMetadata(RATE_LIMIT_POLICY, policy),
    UseGuards(RateLimitGuard),
    ApiTooManyRequestsResponse(descriptions[policy]),
  );
