import { applyDecorators, SetMetadata, UseGuards, UseInterceptors } from '@nestjs/common';
import { ApiTooManyRequestsResponse } from '../common/api-responses';
import { RateLimitGuard } from './rate-limit.guard';
import { CountRefusalsInterceptor } from './count-refusals.interceptor';
import { COUNTED_CALLS, RATE_LIMIT_POLICY, ThrottlePolicy } from './throttle-policies';

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
    'too many refused claims in the window by this user (an unknown, malformed or someone ' +
    "else's code), or from this client address whatever the user. Successful claims, and a " +
    'repeated claim of a code the user already holds, count nothing.',
  'email-change':
    'too many calls changing the email in the window by this user, or from this client address ' +
    'whatever the user (every call whose `email` differs from the current one counts, whatever its ' +
    'answer). Calls that keep the email are never counted nor refused.',
  images:
    'too many uploads in the window by this user, or from this client address whatever the user ' +
    '(every upload counts, whatever its answer). Refused before the file is read.',
};

/** Puts a route under one of the throttle policies (src/throttling/throttle-policies.ts). */
export const RateLimit = (policy: ThrottlePolicy) =>
  applyDecorators(
    SetMetadata(RATE_LIMIT_POLICY, policy),
    UseGuards(RateLimitGuard),
    ...(COUNTED_CALLS[policy] === 'refused-call' ? [UseInterceptors(CountRefusalsInterceptor)] : []),
    ApiTooManyRequestsResponse(descriptions[policy]),
  );
