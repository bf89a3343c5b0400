import { inSpan } from '@rt/telemetry';
import { pipeline } from 'node:stream/promises';
import { Body, Controller, Get, HttpCode, Patch, Post, Put, Query, Res } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import type { Paginated } from '@rt/contracts';
import { zurichToday } from '@rt/platform';
import type { Response } from 'express';
import type { AuthUser } from '../access/access';
import { CurrentUser, SuperAdminOnly, ViewingAs } from '../access/access.decorators';
import { ApiJsonBodyErrors, ApiResourceNotFoundResponse } from '../common/api-responses';
import { ResourceId } from '../common/resource-id';
import { Clock } from '../common/clock';
import { RateLimit } from '../throttling/rate-limit.decorator';
import { ActivationCodesService, batchNotFound, codeNotFound } from './activation-codes.service';
import { ActivationCodeBatchListResponseDto } from './dto/activation-code-batch-list.response';
import { ActivationCodeBatchResponseDto } from './dto/activation-code-batch.response';
import { ActivationCodeBatchesQueryDto } from './dto/activation-code-batches-query.dto';
import { ActivationCodeDetailsResponseDto } from './dto/activation-code-details.response';
import { ActivationCodeListResponseDto } from './dto/activation-code-list.response';
import { ActivationCodeStatisticsQueryDto } from './dto/activation-code-statistics-query.dto';
import { ActivationCodeStatisticsResponseDto } from './dto/activation-code-statistics.response';
import { ActivationCodeStatusResultDto } from './dto/activation-code-status-result.response';
import { ActivationCodeResponseDto } from './dto/activation-code.response';
import { ActivationCodesExportQueryDto } from './dto/activation-codes-export-query.dto';
import { ActivationCodesQueryDto } from './dto/activation-codes-query.dto';
import { ClaimActivationCodeDto } from './dto/claim-activation-code.dto';
import { GenerateActivationCodesDto } from './dto/generate-activation-codes.dto';
import { UpdateActivationCodeBatchDto } from './dto/update-activation-code-batch.dto';
import { UpdateActivationCodeStatusDto } from './dto/update-activation-code-status.dto';

@ApiTags('activation-codes')
@Controller('activation-codes')
export class ActivationCodesController {
  constructor(
    private readonly codes: ActivationCodesService,
    private readonly clock: Clock,
  ) {}

  @Post('batches')
  @SuperAdminOnly()
  @ApiOperation({
    operationId: 'generateActivationCodes',
    summary: 'Generate a batch of activation codes',
    description:
      'Up to 100,000 codes `ABCD-EFGH-JKLM` (60 random bits, no look-alike characters) for one ' +
      'organization, in one transaction. `batch_number` is the next of the organization (1, 2, 3 …, no ' +
      'gap, even when two generations run at once). An unknown organization → 422 on `organisation_id`.',
  })
  @ApiCreatedResponse({ type: ActivationCodeBatchResponseDto, description: 'The batch with its counts.' })
  @ApiJsonBodyErrors()
  generate(
    @Body() dto: GenerateActivationCodesDto,
    @CurrentUser() user: AuthUser,
  ): Promise<ActivationCodeBatchResponseDto> {
    return this.codes.generate(dto, user.id);
  }

  @Get()
  @SuperAdminOnly()
  @ApiOperation({
    operationId: 'listActivationCodes',
    summary: 'List activation codes',
    description:
      'Newest first (`created_at` descending, then `full_code`). Filters combine (AND); `status[]` ' +
      'items combine (OR). `per_page` is 25 by default and lowered to 100 silently; `meta.total` is ' +
      'the size of the filtered set. An unknown status, a malformed date-time or `per_page` < 1 → 422.',
  })
  @ApiOkResponse({ type: ActivationCodeListResponseDto, description: 'One page of codes.' })
  list(@Query() query: ActivationCodesQueryDto): Promise<Paginated<ActivationCodeResponseDto>> {
    return this.codes.list(query);
  }

  @Get('export')
  @SuperAdminOnly()
  @ApiOperation({
    operationId: 'exportActivationCodes',
    summary: 'Export activation codes as CSV',
    description:
      "The listing's filters (`organisation_id[]` an array; absent: all) without pages, in the " +
      "listing's order, streamed. Columns: `full_code, status, organisation_id, organisation_name, " +
      'batch_number, purchased_at, used_at, expires_at, created_at`; timestamps ISO 8601 UTC, empty ' +
      'when absent. A cell starting with `=`, `+`, `-`, `@`, a tab or a carriage return gets a ' +
      "leading `'` (formula injection). File name `activation-codes-YYYY-MM-DD.csv` (today in Europe/Zurich).",
  })
  @ApiOkResponse({
    description: 'The CSV file (`Content-Disposition: attachment`).',
    content: { 'text/csv': { schema: { type: 'string' } } },
    headers: {
      'Content-Disposition': {
        description: '`attachment; filename="activation-codes-YYYY-MM-DD.csv"`',
        schema: { type: 'string' },
      },
    },
  })
  async export(@Query() query: ActivationCodesExportQueryDto, @Res() response: Response): Promise<void> {
    const csv = this.codes.exportCsv(query);
    response.status(200);
    response.setHeader('Content-Type', 'text/csv; charset=utf-8');
    response.setHeader(
      'Content-Disposition',
      `attachment; filename="activation-codes-${zurichToday(this.clock.now())}.csv"`,
    );
    try {
      // Back-pressure end to end; a client that goes away destroys the chain, which releases the
      // database connection (ActivationCodeExportRepository.exportLines).
      await inSpan('activation_codes.export', {}, async (span) => {
        try {
          await pipeline(csv, response);
        } finally {
          span.setAttribute('export.rows', csv.rows);
        }
      });
    } catch (error) {
      if (!response.headersSent) {
        response.removeHeader('Content-Disposition');
        response.removeHeader('Content-Type');
        throw error;
      }
      response.destroy();
    }
  }

  @Put('status')
  @HttpCode(200)
  @SuperAdminOnly()
  @ApiOperation({
    operationId: 'updateActivationCodesStatus',
    summary: 'Cancel, reimburse or renew codes in bulk',
    description:
      '`cancelled`: codes in stock, purchased or expired. `reimbursed`: codes that were purchased ' +
      '(cancelled and expired ones included) and are not used; sets both reimbursed and cancelled. ' +
      '`purchased` with `new_expiration` (a renewal): codes that were purchased and are not used, ' +
      'cancelled or reimbursed, expired or not; only `expires_at` changes. Every other id is skipped ' +
      'with its reason (`not_found`, `already_cancelled`, `already_reimbursed`, `code_used`, ' +
      '`not_purchased`, `not_renewable`: a cancelled or reimbursed code cannot be renewed). HTTP 200 ' +
      'even when ids are skipped. Each code moves at most once, even when the same call is sent twice ' +
      'at once; a renewal of a code that already has the new expiration is answered as updated without a move.',
  })
  @ApiOkResponse({
    type: ActivationCodeStatusResultDto,
    description: 'The codes updated and the ids skipped.',
  })
  @ApiJsonBodyErrors()
  changeStatus(
    @Body() dto: UpdateActivationCodeStatusDto,
    @CurrentUser() user: AuthUser,
  ): Promise<ActivationCodeStatusResultDto> {
    return this.codes.changeStatus(dto, user.id);
  }

  @Post('claim')
  @HttpCode(200)
  @ViewingAs()
  @RateLimit('claim')
  @ApiOperation({
    operationId: 'claimActivationCode',
    summary: 'Claim an activation code',
    description:
      'By any signed-in user under any hat they hold (`traveller` included): the code becomes ' +
      'purchased (if not yet) and theirs. The code is read in any case, with or without dashes and ' +
      'spaces. The same user again → 200, unchanged. 422 on `full_code` for an unknown code, and with ' +
      'a `reason` when refused: `already_claimed` (another user holds it), `code_cancelled`, ' +
      '`code_reimbursed`, `code_expired`.',
  })
  @ApiOkResponse({ type: ActivationCodeResponseDto, description: 'The claimed code.' })
  @ApiJsonBodyErrors()
  claim(
    @Body() dto: ClaimActivationCodeDto,
    @CurrentUser() user: AuthUser,
  ): Promise<ActivationCodeResponseDto> {
    return this.codes.claim(dto.full_code, user.id);
  }

  @Get('batches')
  @SuperAdminOnly()
  @ApiOperation({
    operationId: 'listActivationCodeBatches',
    summary: 'List batches of activation codes',
    description:
      'Newest first, with the counts of their codes by status. `per_page` is 25 by default and ' +
      'lowered to 100 silently; `meta.total` is the size of the filtered set.',
  })
  @ApiOkResponse({ type: ActivationCodeBatchListResponseDto, description: 'One page of batches.' })
  listBatches(
    @Query() query: ActivationCodeBatchesQueryDto,
  ): Promise<Paginated<ActivationCodeBatchResponseDto>> {
    return this.codes.listBatches(query);
  }

  @Patch('batches/:id')
  @SuperAdminOnly()
  @ApiParam({
    name: 'id',
    format: 'uuid',
    description: 'The batch; an id that is not a UUID names none (404).',
  })
  @ApiOperation({
    operationId: 'updateActivationCodeBatch',
    summary: 'Update a batch of activation codes',
    description:
      'Absent fields stay as they are. `expires_at` (null: never) is also given to every code of the ' +
      'batch that is not used, each change recorded in its history. Answers the batch with its ' +
      'counts recomputed.',
  })
  @ApiOkResponse({ type: ActivationCodeBatchResponseDto, description: 'The batch with its counts.' })
  @ApiResourceNotFoundResponse('no batch has this id (a malformed id included).')
  @ApiJsonBodyErrors()
  updateBatch(
    @ResourceId('id', batchNotFound) id: string,
    @Body() dto: UpdateActivationCodeBatchDto,
    @CurrentUser() user: AuthUser,
  ): Promise<ActivationCodeBatchResponseDto> {
    return this.codes.updateBatch(id, dto, user.id);
  }

  @Get('statistics')
  @SuperAdminOnly()
  @ApiOperation({
    operationId: 'getActivationCodeStatistics',
    summary: 'Activation code statistics',
    description: "The number of codes, all or an organization's, in total and by status (all seven).",
  })
  @ApiOkResponse({ type: ActivationCodeStatisticsResponseDto, description: 'The counts.' })
  statistics(@Query() query: ActivationCodeStatisticsQueryDto): Promise<ActivationCodeStatisticsResponseDto> {
    return this.codes.statistics(query.organisation_id);
  }

  @Get(':id')
  @SuperAdminOnly()
  @ApiParam({
    name: 'id',
    format: 'uuid',
    description: 'The code; an id that is not a UUID names none (404).',
  })
  @ApiOperation({
    operationId: 'getActivationCode',
    summary: 'An activation code with its history',
    description:
      'Every move of the code (generation, claim, cancel, reimburse, renewal, expiration change), oldest first.',
  })
  @ApiOkResponse({ type: ActivationCodeDetailsResponseDto, description: 'The code and its history.' })
  @ApiResourceNotFoundResponse('no code has this id (a malformed id included).')
  details(@ResourceId('id', codeNotFound) id: string): Promise<ActivationCodeDetailsResponseDto> {
    return this.codes.details(id);
  }
}
