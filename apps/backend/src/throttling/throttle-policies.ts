import type { Request } from 'express';
import type { AccessRequest } from '../access/access';
import { sha256Hex } from '../common/secrets';
import { canonicalEmail } from '../users/email-address';
import type { ThrottleSettings } from './throttle.settings';

/**
 * The rate limits of the backend. Each keeps two counters per request, both keyed on the client
 * address, so that requests from one address never lock out the same user asking from another:
 * - one per normalised email and address (the attempts on one account from one place);
 * - one per address alone, with a larger budget (one address cycling through many emails).
 * `login` counts failed sign-ins only (a correct password never counts, and clears the failures
 * of its email and address); `forgot-password`, `reset-password` and `signup` count every call.
 * `signup` (POST /organizations/signup) keys its email counter on the body's `contact_email`, and
 * gives both counters the same budget: what matters there is the address.
 * `claim` (POST /activation-codes/claim) is keyed on the signed-in user instead of an email: a
 * user guessing codes is stopped wherever they ask from. It counts refused claims only (an
 * unknown, malformed or someone else's code): a shop assistant claiming real codes for customers
 * from one account is never stopped.
 * `email-change` (PUT /user) is keyed on the signed-in user too, and counts only the calls whose
 * `email` differs (in its canonical form, D-77) from the user's: every such call, whatever its answer (a
 * wrong password, a taken address, a change asked), so that the 422 for a taken address is no
 * cheap oracle of who has an account (docs/decisions.md D-70). Other profile edits count nothing
 * and are never refused.
 * `images` (POST /images) is keyed on the signed-in user and counts every upload, whatever its
 * answer: each costs its reading and its header at least, and an accepted one its decoding
 * (docs/decisions.md D-41).
 * A route opts in with `@RateLimit(policy)`.
 */
export const THROTTLE_POLICIES = [
  'login',
  'forgot-password',
  'reset-password',
  'signup',
  'claim',
  'email-change',
  'images',
] as const;
export type ThrottlePolicy = (typeof THROTTLE_POLICIES)[number];

export const RATE_LIMIT_POLICY = 'rt:rate-limit-policy';

/**
 * What a policy counts: `every-call` is counted by the guard before the handler; otherwise the
 * guard only refuses a blocked key, and the failures are counted by the sign-in itself
 * (`failed-sign-in`) or by CountRefusalsInterceptor (`refused-call`: a 400 or 422 answer);
 * `email-changing-call`: the guard counts the call when it changes the email (changesEmail), and
 * lets any other call through untouched.
 */
export const COUNTED_CALLS: Record<
  ThrottlePolicy,
  'every-call' | 'failed-sign-in' | 'refused-call' | 'email-changing-call'
> = {
  login: 'failed-sign-in',
  'forgot-password': 'every-call',
  'reset-password': 'every-call',
  signup: 'every-call',
  claim: 'refused-call',
  'email-change': 'email-changing-call',
  images: 'every-call',
};

/** The policies keyed on the signed-in user (whatever the address) rather than on an email. */
const keyedOnUser = (policy: ThrottlePolicy): boolean =>
  policy === 'claim' || policy === 'email-change' || policy === 'images';

/** What a policy's second counter is keyed on: the signed-in user for `claim`, `email-change` and `images`, else the body's email. */
export const throttleSubjectOf = (policy: ThrottlePolicy, req: Request): unknown =>
  keyedOnUser(policy)
    ? (req as AccessRequest).auth?.user.id
    : (req.body as Record<string, unknown> | undefined)?.[emailFieldOf(policy)];

/** Whether a `PUT /user` asks for another email than the signed-in user's (a string, compared in its canonical form). */
export const changesEmail = (req: Request): boolean => {
  const email = (req.body as Record<string, unknown> | undefined)?.email;
  const current = (req as AccessRequest).auth?.user.email;
  return (
    typeof email === 'string' && current !== undefined && normalizedEmail(email) !== normalizedEmail(current)
  );
};

/** The body field a policy reads the email from. */
export const emailFieldOf = (policy: ThrottlePolicy): string =>
  policy === 'signup' ? 'contact_email' : 'email';

/** The canonical form (docs/decisions.md D-77): every spelling of one address shares its counters. */
export const normalizedEmail = (value: unknown): string =>
  typeof value === 'string' ? canonicalEmail(value) : '';

/** The stored key: a SHA-256, so counters hold no email or address in clear. */
export const throttleKey = (scope: string, tracker: string): string => sha256Hex(`${scope}:${tracker}`);

/** One counter of a request: its stored key, and more than `limit` hits within `windowMs` block it as long. */
export interface ThrottleCounterSpec {
  key: string;
  limit: number;
  windowMs: number;
}

export interface ThrottleCounters {
  /** Per client address, whatever the email. */
  address: ThrottleCounterSpec;
  /** Per normalised email and client address (`claim`: per user, whatever the address). */
  emailAndAddress: ThrottleCounterSpec;
}

export function throttleCounters(
  settings: ThrottleSettings,
  policy: ThrottlePolicy,
  email: unknown,
  clientAddress: string | undefined,
): ThrottleCounters {
  const address = clientAddress ?? '';
  const { windowSeconds, addressLimit, emailLimit } = limitsOf(settings, policy);
  const windowMs = windowSeconds * 1000;
  return {
    address: { key: throttleKey(`${policy}/address`, address), limit: addressLimit, windowMs },
    emailAndAddress: {
      // `claim`, `email-change`, `images`: the user alone, whatever the address (a guesser cannot rotate addresses).
      key: throttleKey(
        policy,
        keyedOnUser(policy) ? normalizedEmail(email) : `${normalizedEmail(email)}|${address}`,
      ),
      limit: emailLimit,
      windowMs,
    },
  };
}

/** The largest budget a counter takes (`throttle_counters.hits` is an integer): a counter that never blocks. */
const UNBOUNDED = 2 ** 31 - 1;

/**
 * The signup policy's counter of contact-consent emails, per existing account named as a signup's
 * contact (docs/decisions.md D-78): the first hit of a signup window may mail the account, the
 * later ones in that window may not. It never blocks: the signup answers the same either way.
 */
export const signupContactMailCounter = (
  settings: ThrottleSettings,
  userId: string,
): ThrottleCounterSpec => ({
  key: throttleKey('signup/contact-mail', userId),
  limit: UNBOUNDED,
  windowMs: settings.THROTTLE_SIGNUP_WINDOW_SECONDS * 1000,
});

function limitsOf(
  settings: ThrottleSettings,
  policy: ThrottlePolicy,
): { windowSeconds: number; addressLimit: number; emailLimit: number } {
  switch (policy) {
    case 'login':
      return {
        windowSeconds: settings.THROTTLE_LOGIN_WINDOW_SECONDS,
        addressLimit: settings.THROTTLE_LOGIN_ADDRESS_LIMIT,
        emailLimit: settings.THROTTLE_LOGIN_LIMIT,
      };
    case 'forgot-password':
    case 'reset-password':
      return {
        windowSeconds: settings.THROTTLE_PASSWORD_WINDOW_SECONDS,
        addressLimit: settings.THROTTLE_PASSWORD_ADDRESS_LIMIT,
        emailLimit: settings.THROTTLE_PASSWORD_LIMIT,
      };
    case 'claim':
      return {
        windowSeconds: settings.THROTTLE_CLAIM_WINDOW_SECONDS,
        addressLimit: settings.THROTTLE_CLAIM_ADDRESS_LIMIT,
        emailLimit: settings.THROTTLE_CLAIM_LIMIT,
      };
    case 'email-change':
      return {
        windowSeconds: settings.THROTTLE_EMAIL_CHANGE_WINDOW_SECONDS,
        addressLimit: settings.THROTTLE_EMAIL_CHANGE_ADDRESS_LIMIT,
        emailLimit: settings.THROTTLE_EMAIL_CHANGE_LIMIT,
      };
    case 'images':
      return {
        windowSeconds: settings.THROTTLE_IMAGES_WINDOW_SECONDS,
        addressLimit: settings.THROTTLE_IMAGES_ADDRESS_LIMIT,
        emailLimit: settings.THROTTLE_IMAGES_LIMIT,
      };
    case 'signup':
      // Per address: a new contact email per call must not buy more signups.
      return {
        windowSeconds: settings.THROTTLE_SIGNUP_WINDOW_SECONDS,
        addressLimit: settings.THROTTLE_SIGNUP_LIMIT,
        emailLimit: settings.THROTTLE_SIGNUP_LIMIT,
      };
  }
}
