import { zurichToday } from '@rt/platform';

/**
 * The derived status of a code, in TypeScript: the mirror of activation-code-status.sql.ts (the
 * one SQL definition that listing, filters, counts, statistics, batch counters and the export
 * use). The mapper uses this one on rows it already holds; both follow the same precedence and
 * the unit tests pin this one.
 */
export const CODE_STATUSES = [
  'reimbursed',
  'cancelled',
  'active',
  'used',
  'expired',
  'purchased',
  'in stock',
] as const;
export type CodeStatus = (typeof CODE_STATUSES)[number];

/**
 * What the status is derived from: the stored lifecycle timestamps, the expiration, and the
 * window of the trip started on the code (`YYYY-MM-DD`, both null until a trip starts).
 */
export interface CodeFlags {
  purchasedAt: Date | null;
  usedAt: Date | null;
  cancelledAt: Date | null;
  reimbursedAt: Date | null;
  expiresAt: Date | null;
  tripStartsOn: string | null;
  tripEndsOn: string | null;
}

export interface CodeFlagValues {
  isReimbursed: boolean;
  isCancelled: boolean;
  isActive: boolean;
  isUsed: boolean;
  isExpired: boolean;
  isPurchased: boolean;
}

/**
 * Whether a trip runs on the code at `now`: today in Europe/Zurich lies in the trip window (from
 * its first day through the date of its last dated step, both inclusive). The mirror of
 * ACTIVE_SQL (activation-code-status.sql.ts). `YYYY-MM-DD` strings compare as dates.
 */
export function isActive(code: CodeFlags, now: Date): boolean {
  if (code.tripStartsOn === null || code.tripEndsOn === null) return false;
  const today = zurichToday(now);
  return code.tripStartsOn <= today && code.tripEndsOn >= today;
}

export function flagsOf(code: CodeFlags, now: Date): CodeFlagValues {
  return {
    // A reimbursement sets both timestamps: a reimbursed code is cancelled too.
    isReimbursed: code.reimbursedAt !== null,
    isCancelled: code.cancelledAt !== null,
    isActive: isActive(code, now),
    isUsed: code.usedAt !== null,
    isExpired: code.expiresAt !== null && code.expiresAt.getTime() < now.getTime(),
    isPurchased: code.purchasedAt !== null,
  };
}

/** The first matching flag wins: reimbursed > cancelled > active > used > expired > purchased > in stock. */
export function statusOf(code: CodeFlags, now: Date): CodeStatus {
  const flags = flagsOf(code, now);
  if (flags.isReimbursed) return 'reimbursed';
  if (flags.isCancelled) return 'cancelled';
  if (flags.isActive) return 'active';
  if (flags.isUsed) return 'used';
  if (flags.isExpired) return 'expired';
  if (flags.isPurchased) return 'purchased';
  return 'in stock';
}

/** The moves of PUT /activation-codes/status (`purchased` with `new_expiration` is the renewal). */
export type BulkAction = 'cancel' | 'reimburse' | 'renew';

export const SKIP_REASONS = [
  'not_found',
  'already_cancelled',
  'already_reimbursed',
  'code_used',
  'not_purchased',
  'not_renewable',
] as const;
export type SkipReason = (typeof SKIP_REASONS)[number];

/**
 * Why a code cannot make `action`, or null when it can (the mirror of `transitionSourceSql`):
 * - cancel: from in stock, purchased or expired: not reimbursed, not cancelled, not used (nor active);
 * - reimburse: a code that was purchased and is not reimbursed nor used (cancelled and expired
 *   ones included);
 * - renew: a code that was purchased and is not used, cancelled or reimbursed (expired or not).
 */
export function skipReasonOf(action: BulkAction, code: CodeFlags, now: Date): SkipReason | null {
  const flags = flagsOf(code, now);
  switch (action) {
    case 'cancel':
      if (flags.isReimbursed) return 'already_reimbursed';
      if (flags.isCancelled) return 'already_cancelled';
      if (flags.isUsed || flags.isActive) return 'code_used';
      return null;
    case 'reimburse':
      if (flags.isReimbursed) return 'already_reimbursed';
      if (flags.isUsed || flags.isActive) return 'code_used';
      if (!flags.isPurchased) return 'not_purchased';
      return null;
    case 'renew':
      if (flags.isCancelled) return 'not_renewable';
      if (flags.isUsed || flags.isActive) return 'code_used';
      if (!flags.isPurchased) return 'not_purchased';
      return null;
  }
}

/** Why a claim is refused (422 `reason`), or null when the user may claim (or already holds) it. */
export type ClaimRefusal = 'code_reimbursed' | 'code_cancelled' | 'already_claimed' | 'code_expired';

export interface ClaimableCode extends CodeFlags {
  claimedByUserId: string | null;
}

/**
 * The claim rules, mirrored by the claim's conditional UPDATE: a reimbursed or cancelled code is
 * refused; a code claimed by the same user answers unchanged; by another user → already_claimed;
 * an expired code that nobody holds → code_expired.
 */
export function claimRefusalOf(code: ClaimableCode, userId: string, now: Date): ClaimRefusal | null {
  const flags = flagsOf(code, now);
  if (flags.isReimbursed) return 'code_reimbursed';
  if (flags.isCancelled) return 'code_cancelled';
  if (code.claimedByUserId !== null) return code.claimedByUserId === userId ? null : 'already_claimed';
  if (flags.isExpired) return 'code_expired';
  return null;
}

/** Why a trip cannot start on a code (422 `reason` of `POST /trips`). */
export type TripStartRefusal =
  'not_claimed' | 'code_reimbursed' | 'code_cancelled' | 'code_used' | 'code_expired';

/**
 * The rules of a trip's start, mirrored by the conditional UPDATE of
 * `ActivationCodesRepository.startTrip`: the code must be claimed by the traveller (an unknown
 * code, or one claimed by nobody or someone else, is `not_claimed`: nothing tells them apart), not
 * reimbursed, not cancelled, not used already, not expired. Null when the trip may start.
 */
export function tripStartRefusalOf(
  code: ClaimableCode | null,
  userId: string,
  now: Date,
): TripStartRefusal | null {
  if (code === null || code.claimedByUserId !== userId) return 'not_claimed';
  const flags = flagsOf(code, now);
  if (flags.isReimbursed) return 'code_reimbursed';
  if (flags.isCancelled) return 'code_cancelled';
  if (flags.isUsed || flags.isActive) return 'code_used';
  if (flags.isExpired) return 'code_expired';
  return null;
}
