import { Injectable } from '@nestjs/common';
import {
  bulkResult,
  BulkSkippedDto,
  LIST_PAGE_RULES,
  paginated,
  Paginated,
  toInstant,
  toPage,
} from '@rt/contracts';
import { AppError } from '@rt/errors';
import { isUUID } from 'class-validator';
import { Clock } from '../common/clock';
import { Transactions } from '../database/transactions';
import { ActivationCodeGenerator, normalizeTypedCode } from './activation-code-generator';
import { CodeFilter } from './activation-code-listing.sql';
import {
  BulkAction,
  claimRefusalOf,
  ClaimRefusal,
  skipReasonOf,
  TripStartRefusal,
  tripStartRefusalOf,
} from './activation-code-status';
import {
  toActivationCodeBatchResponse,
  toActivationCodeEvent,
  toActivationCodeResponse,
  toStatusCounts,
} from './activation-code.mapper';
import type { BatchView } from './activation-code.rows';
import {
  ActivationCodeBatchesRepository,
  UnknownOrganizationError,
} from './activation-code-batches.repository';
import { ActivationCodeExportRepository } from './activation-code-export.repository';
import { ActivationCodesRepository, TripStart } from './activation-codes.repository';
import { ActivationCodeBatchResponseDto } from './dto/activation-code-batch.response';
import { ActivationCodeBatchesQueryDto } from './dto/activation-code-batches-query.dto';
import { ActivationCodeDetailsResponseDto } from './dto/activation-code-details.response';
import { ActivationCodeFiltersDto } from './dto/activation-code-filters.dto';
import { ActivationCodeStatisticsResponseDto } from './dto/activation-code-statistics.response';
import { ActivationCodeStatusResultDto } from './dto/activation-code-status-result.response';
import { ActivationCodeResponseDto } from './dto/activation-code.response';
import { ActivationCodesExportQueryDto } from './dto/activation-codes-export-query.dto';
import { ActivationCodesQueryDto } from './dto/activation-codes-query.dto';
import { GenerateActivationCodesDto } from './dto/generate-activation-codes.dto';
import { UpdateActivationCodeBatchDto } from './dto/update-activation-code-batch.dto';
import { UpdateActivationCodeStatusDto } from './dto/update-activation-code-status.dto';
import { CsvOfExportLines } from './export-csv';

export type { TripStart } from './activation-codes.repository';

/** How many times a generation draws again for codes that collided with existing ones. */
const MAX_GENERATION_ROUNDS = 10;

const CLAIM_MESSAGES: Record<ClaimRefusal, string> = {
  code_reimbursed: 'This code was reimbursed and can no longer be used.',
  code_cancelled: 'This code was cancelled and can no longer be used.',
  already_claimed: 'This code is already claimed.',
  code_expired: 'This code has expired.',
};

export const batchNotFound = () => AppError.notFound('Activation code batch not found.');
export const codeNotFound = () => AppError.notFound('Activation code not found.');

/** The rules of activation codes: generation, listing, export, bulk moves, claim, batches, statistics. */
@Injectable()
export class ActivationCodesService {
  constructor(
    private readonly codes: ActivationCodesRepository,
    private readonly batches: ActivationCodeBatchesRepository,
    private readonly exports: ActivationCodeExportRepository,
    private readonly generator: ActivationCodeGenerator,
    private readonly transactions: Transactions,
    private readonly clock: Clock,
  ) {}

  /**
   * A batch of `count` new codes, in one transaction: the organization's next batch number, the
   * batch, the codes in bulk with their history. A code that collides with an existing one is
   * drawn again (never surfaced).
   */
  async generate(
    dto: GenerateActivationCodesDto,
    actorUserId: string,
  ): Promise<ActivationCodeBatchResponseDto> {
    let batch: BatchView;
    try {
      batch = await this.transactions.run(async () => {
        const batchNumber = await this.batches.nextBatchNumber(dto.organisation_id);
        const created = await this.batches.insertBatch({
          organizationId: dto.organisation_id,
          batchNumber,
          internalNote: dto.internal_note ?? null,
          expiresAt: dto.expires_at ? new Date(dto.expires_at) : null,
          createdByUserId: actorUserId,
        });
        let missing = dto.count;
        for (let round = 0; missing > 0; round++) {
          if (round === MAX_GENERATION_ROUNDS) throw new Error('activation codes: too many collisions');
          missing -= await this.codes.insertCodes(created, this.generator.generate(missing), actorUserId);
        }
        return created;
      });
    } catch (error) {
      if (error instanceof UnknownOrganizationError) {
        throw AppError.validation({ organisation_id: ['The selected organisation id is invalid.'] });
      }
      throw error;
    }
    return this.batchResponse(batch);
  }

  async list(query: ActivationCodesQueryDto): Promise<Paginated<ActivationCodeResponseDto>> {
    const page = toPage(query, LIST_PAGE_RULES);
    const filter: CodeFilter = {
      ...this.filterOf(query),
      organizationIds: query.organisation_id ? [query.organisation_id] : undefined,
    };
    const [codes, total] = await this.codes.findPage(filter, page);
    const now = this.clock.now();
    return paginated(
      codes.map((code) => toActivationCodeResponse(code, now)),
      total,
      page,
    );
  }

  /** The export as CSV text chunks (header first), streamed from the database. */
  exportCsv(query: ActivationCodesExportQueryDto): CsvOfExportLines {
    const lines = this.exports.exportLines({
      ...this.filterOf(query),
      organizationIds: query.organisation_id,
    });
    const csv = new CsvOfExportLines();
    lines.on('error', (error) => csv.destroy(error));
    csv.on('close', () => lines.destroy());
    return lines.pipe(csv);
  }

  async details(id: string): Promise<ActivationCodeDetailsResponseDto> {
    const code = await this.codes.findById(id);
    if (!code) throw codeNotFound();
    const history = await this.codes.findHistory(id);
    return {
      ...toActivationCodeResponse(code, this.clock.now()),
      history: history.map(toActivationCodeEvent),
    };
  }

  /**
   * Cancel, reimburse or renew (`purchased` + `new_expiration`) in bulk: one conditional statement
   * moves the codes whose state allows it; every other id is reported with why. A renewal of a
   * code that already has the new expiration counts as updated without a move.
   */
  async changeStatus(
    dto: UpdateActivationCodeStatusDto,
    actorUserId: string,
  ): Promise<ActivationCodeStatusResultDto> {
    const action: BulkAction =
      dto.status === 'cancelled' ? 'cancel' : dto.status === 'reimbursed' ? 'reimburse' : 'renew';
    if (action === 'renew' && dto.new_expiration === undefined) {
      throw AppError.validation({
        new_expiration: ['The new expiration field is required when status is purchased.'],
      });
    }
    if (action !== 'renew' && dto.new_expiration !== undefined) {
      throw AppError.validation({
        new_expiration: ['The new expiration field is only accepted when status is purchased.'],
      });
    }
    const ids = [...new Set(dto.ids.map((id) => id.toLowerCase()))];
    const moved = await this.codes.move(action, ids, actorUserId, toInstant(dto.new_expiration));
    const movedIds = new Set(moved.map((code) => code.id));
    const rest = await this.codes.findByIds(ids.filter((id) => !movedIds.has(id)));
    const now = this.clock.now();
    const updated = moved.map((code) => toActivationCodeResponse(code, now));
    const skipped: BulkSkippedDto[] = [];
    const found = new Map(rest.map((code) => [code.id, code]));
    for (const id of ids) {
      if (movedIds.has(id)) continue;
      const code = found.get(id);
      const reason = code ? skipReasonOf(action, code, now) : 'not_found';
      if (reason === null && code) updated.push(toActivationCodeResponse(code, now));
      else skipped.push({ id, reason: reason ?? 'not_found' });
    }
    return bulkResult(updated, skipped);
  }

  /**
   * A traveller claims a code (any hat): it becomes purchased (if not yet) and theirs. Claiming a
   * code one already holds answers it unchanged.
   */
  async claim(typed: string, userId: string): Promise<ActivationCodeResponseDto> {
    const fullCode = normalizeTypedCode(typed);
    const unknown = () => AppError.validation({ full_code: ['The selected full code is invalid.'] });
    if (!fullCode) throw unknown();
    const claimed = await this.codes.claim(fullCode, userId);
    const now = this.clock.now();
    if (claimed) return toActivationCodeResponse(claimed, now);
    const code = await this.codes.findByFullCode(fullCode);
    if (!code) throw unknown();
    const refusal = claimRefusalOf(code, userId, now);
    if (refusal) throw AppError.validation({ full_code: [CLAIM_MESSAGES[refusal]] }, refusal);
    if (code.claimedByUserId === userId) return toActivationCodeResponse(code, now);
    // Free and claimable, yet not claimed: it changed between the two statements; say so plainly.
    throw AppError.validation({ full_code: ['This code changed meanwhile; try again.'] });
  }

  /**
   * For the trips feature: a trip starts on the code, in the caller's transaction (call inside
   * `Transactions.run`, with the trip's own insert). One conditional statement marks the code used,
   * stores the trip window (which makes it active while the trip runs) and appends its
   * `trip_start` history row. Answers null when it moved, else why not: `not_claimed` (unknown or
   * claimed by nobody or someone else: nothing tells them apart), `code_reimbursed`,
   * `code_cancelled`, `code_used`, `code_expired`.
   */
  async startTrip(codeId: string, userId: string, trip: TripStart): Promise<TripStartRefusal | null> {
    if (!isUUID(codeId)) return 'not_claimed';
    if (await this.codes.startTrip(codeId, userId, trip)) return null;
    const refusal = tripStartRefusalOf(await this.codes.findById(codeId), userId, this.clock.now());
    // Startable yet not moved: another trip took it between the two statements, so it is used.
    return refusal ?? 'code_used';
  }

  async listBatches(
    query: ActivationCodeBatchesQueryDto,
  ): Promise<Paginated<ActivationCodeBatchResponseDto>> {
    const page = toPage(query, LIST_PAGE_RULES);
    const [batches, total] = await this.batches.findBatchPage(
      { organizationId: query.organisation_id, batchNumber: query.batch_number },
      page,
    );
    const counts = await this.batches.countByStatusOfBatches(batches.map((batch) => batch.id));
    return paginated(
      batches.map((batch) => toActivationCodeBatchResponse(batch, counts.get(batch.id)!)),
      total,
      page,
    );
  }

  /** The note and/or the expiration (given to the batch's codes that are not used, with history). */
  async updateBatch(
    id: string,
    dto: UpdateActivationCodeBatchDto,
    actorUserId: string,
  ): Promise<ActivationCodeBatchResponseDto> {
    const found = await this.transactions.run(async () => {
      if (dto.internal_note !== undefined && !(await this.batches.setBatchNote(id, dto.internal_note))) {
        return false;
      }
      if (dto.expires_at !== undefined) {
        const expiresAt = dto.expires_at === null ? null : new Date(dto.expires_at);
        if ((await this.batches.setBatchExpiration(id, expiresAt, actorUserId)) === null) return false;
      }
      return true;
    });
    const batch = found ? await this.batches.findBatch(id) : null;
    if (!batch) throw batchNotFound();
    return this.batchResponse(batch);
  }

  async statistics(organizationId?: string): Promise<ActivationCodeStatisticsResponseDto> {
    const counts = await this.codes.countByStatus(organizationId);
    return { total: counts.total, by_status: toStatusCounts(counts) };
  }

  private async batchResponse(batch: BatchView): Promise<ActivationCodeBatchResponseDto> {
    const counts = await this.batches.countByStatusOfBatches([batch.id]);
    return toActivationCodeBatchResponse(batch, counts.get(batch.id)!);
  }

  private filterOf(query: ActivationCodeFiltersDto): Omit<CodeFilter, 'organizationIds'> {
    return {
      statuses: query.status,
      expiresFrom: toInstant(query.expires_from),
      expiresTo: toInstant(query.expires_to),
      search: query.search?.trim() || undefined,
    };
  }
}
