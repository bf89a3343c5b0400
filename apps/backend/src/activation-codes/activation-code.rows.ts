import type { CodeAction } from './activation-code-event.entity';
import { CODE_STATUSES, type CodeFlags, type CodeStatus } from './activation-code-status';

/**
 * What the feature's repositories answer (views) and the raw rows they read them from, shared by
 * ActivationCodesRepository and ActivationCodeBatchesRepository.
 */

/** A code as its resource shows it. */
export interface CodeView extends CodeFlags {
  id: string;
  fullCode: string;
  organizationId: string;
  batchId: string;
  batchNumber: number;
  claimedByUserId: string | null;
  createdAt: Date;
}

export interface CodeEventView {
  action: CodeAction;
  fromStatus: CodeStatus | null;
  toStatus: CodeStatus;
  actorUserId: string | null;
  at: Date;
  details: Record<string, unknown> | null;
}

export type StatusCounts = Record<CodeStatus, number> & { total: number };

export interface BatchView {
  id: string;
  organizationId: string;
  batchNumber: number;
  internalNote: string | null;
  expiresAt: Date | null;
  createdAt: Date;
}

/** A row of `CODE_COLUMNS` (activation-code-listing.sql.ts). */
export interface CodeRow {
  id: string;
  full_code: string;
  organization_id: string;
  batch_id: string;
  batch_number: number;
  expires_at: Date | null;
  purchased_at: Date | null;
  used_at: Date | null;
  cancelled_at: Date | null;
  reimbursed_at: Date | null;
  claimed_by_user_id: string | null;
  created_at: Date;
  trip_starts_on: string | null;
  trip_ends_on: string | null;
}

export const toCodeView = (row: CodeRow): CodeView => ({
  id: row.id,
  fullCode: row.full_code,
  organizationId: row.organization_id,
  batchId: row.batch_id,
  batchNumber: Number(row.batch_number),
  expiresAt: row.expires_at,
  purchasedAt: row.purchased_at,
  usedAt: row.used_at,
  cancelledAt: row.cancelled_at,
  reimbursedAt: row.reimbursed_at,
  claimedByUserId: row.claimed_by_user_id,
  createdAt: row.created_at,
  tripStartsOn: row.trip_starts_on,
  tripEndsOn: row.trip_ends_on,
});

/** A row of `statusCountsSql` (counts come back from `pg` as strings: bigint). */
export type CountsRow = Record<string, string | number>;

export const toCounts = (row: CountsRow | undefined): StatusCounts => {
  const counts = { total: Number(row?.total ?? 0) } as StatusCounts;
  for (const status of CODE_STATUSES) counts[status] = Number(row?.[status] ?? 0);
  return counts;
};
