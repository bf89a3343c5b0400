import { flagsOf, statusOf } from './activation-code-status';
import type { BatchView, CodeEventView, CodeView, StatusCounts } from './activation-code.rows';
import { ActivationCodeBatchResponseDto } from './dto/activation-code-batch.response';
import { ActivationCodeEventDto } from './dto/activation-code-event.response';
import { ActivationCodeResponseDto } from './dto/activation-code.response';
import { CodeCountsDto, StatusCountsDto } from './dto/code-counts.response';

const iso = (value: Date | null): string | null => (value ? value.toISOString() : null);

/** The code resource; its status and flags derived at `now` (activation-code-status.ts). */
export function toActivationCodeResponse(code: CodeView, now: Date): ActivationCodeResponseDto {
  const flags = flagsOf(code, now);
  return {
    id: code.id,
    full_code: code.fullCode,
    status: statusOf(code, now),
    is_reimbursed: flags.isReimbursed,
    is_cancelled: flags.isCancelled,
    is_used: flags.isUsed,
    is_expired: flags.isExpired,
    is_active: flags.isActive,
    is_purchased: flags.isPurchased,
    purchased_at: iso(code.purchasedAt),
    used_at: iso(code.usedAt),
    expires_at: iso(code.expiresAt),
    cancelled_at: iso(code.cancelledAt),
    reimbursed_at: iso(code.reimbursedAt),
    organisation_id: code.organizationId,
    batch_id: code.batchId,
    batch_number: code.batchNumber,
    created_at: code.createdAt.toISOString(),
  };
}

export const toActivationCodeEvent = (event: CodeEventView): ActivationCodeEventDto => ({
  action: event.action,
  from_status: event.fromStatus,
  to_status: event.toStatus,
  actor_user_id: event.actorUserId,
  at: event.at.toISOString(),
  details: event.details,
});

export const toStatusCounts = (counts: StatusCounts): StatusCountsDto => ({
  reimbursed: counts.reimbursed,
  cancelled: counts.cancelled,
  active: counts.active,
  used: counts.used,
  expired: counts.expired,
  purchased: counts.purchased,
  'in stock': counts['in stock'],
});

export const toCodeCounts = (counts: StatusCounts): CodeCountsDto => ({
  total: counts.total,
  ...toStatusCounts(counts),
});

export const toActivationCodeBatchResponse = (
  batch: BatchView,
  counts: StatusCounts,
): ActivationCodeBatchResponseDto => ({
  id: batch.id,
  organisation_id: batch.organizationId,
  batch_number: batch.batchNumber,
  internal_note: batch.internalNote,
  expires_at: iso(batch.expiresAt),
  created_at: batch.createdAt.toISOString(),
  code_counts: toCodeCounts(counts),
});
