import type { ExecutionContext } from '@nestjs/common';
import type { ThrottlerOptions } from '@nestjs/throttler';
import type { Request } from 'express';
import type { BackendConfig } from '../config';
import { sha256Hex } from '../common/secrets';

/**
 * The rate limits of the backend, each keyed on what it protects:
 * - `login`: failed sign-ins per email and client address (a success forgives the failures);
 * - `forgot-password`, `reset-password`: calls per email address.
 * A route opts in with `@RateLimit(policy)`; every other route skips every policy.
 */
export const THROTTLE_POLICIES = ['login', 'forgot-password', 'reset-password'] as const;
export type ThrottlePolicy = (typeof THROTTLE_POLICIES)[number];

export const RATE_LIMIT_POLICY = 'rt:rate-limit-policy';

export const normalizedEmail = (value: unknown): string =>
  typeof value === 'string' ? value.trim().toLowerCase() : '';

export const loginTracker = (email: unknown, ip: string | undefined): string =>
  `${normalizedEmail(email)}|${ip ?? ''}`;

/** The stored key: a SHA-256, so counters hold no email or address in clear. */
export const throttleKey = (policy: string, tracker: string): string => sha256Hex(`${policy}:${tracker}`);

const bodyEmail = (req: Record<string, unknown>) => (req.body as { email?: unknown } | undefined)?.email;

const policyOf = (context: ExecutionContext): ThrottlePolicy | undefined =>
  Reflect.getMetadata(RATE_LIMIT_POLICY, context.getHandler()) as ThrottlePolicy | undefined;

export function throttlerOptions(config: BackendConfig): ThrottlerOptions[] {
  const login = config.THROTTLE_LOGIN_WINDOW_SECONDS * 1000;
  const password = config.THROTTLE_PASSWORD_WINDOW_SECONDS * 1000;
  const policy = (
    name: ThrottlePolicy,
    limit: number,
    windowMs: number,
    tracker: ThrottlerOptions['getTracker'],
  ) => ({
    name,
    limit,
    ttl: windowMs,
    blockDuration: windowMs,
    getTracker: tracker,
    skipIf: (context: ExecutionContext) => policyOf(context) !== name,
  });
  return [
    policy('login', config.THROTTLE_LOGIN_LIMIT, login, (req) =>
      loginTracker(bodyEmail(req), (req as unknown as Request).ip),
    ),
    policy('forgot-password', config.THROTTLE_PASSWORD_LIMIT, password, (req) =>
      normalizedEmail(bodyEmail(req)),
    ),
    policy('reset-password', config.THROTTLE_PASSWORD_LIMIT, password, (req) =>
      normalizedEmail(bodyEmail(req)),
    ),
  ];
}
