import { Controller, Get, Query, Req, Res, UseGuards } from '@nestjs/common';
import {
  ApiHeader,
  ApiOkResponse,
  ApiOperation,
  ApiServiceUnavailableResponse,
  ApiTags,
  ApiTooManyRequestsResponse,
  ApiUnprocessableEntityResponse,
} from '@nestjs/swagger';
import { ErrorResponseDto } from '@rt/contracts';
import { AppError } from '@rt/errors';
import type { Request, Response } from 'express';
import { SearchValidationErrorResponseDto } from '../docs/validation-error.response';
import { RateLimitGuard } from '../rate-limit/rate-limit.guard';
import { TravelListingResponseDto } from './dto/travel-listing.response';
import { TravelsQueryDto } from './dto/travels-query.dto';
import { invalidUtf8Parameters } from './query-bytes';
import { TravelsService } from './travels.service';

@ApiTags('travels')
@Controller('travels')
@UseGuards(RateLimitGuard)
export class TravelsController {
  constructor(private readonly travels: TravelsService) {}

  @Get()
  @ApiOperation({
    summary: 'List travel offers',
    description:
      'Without a search (or a blank one): filters only, sorted by orderBy (nulls last, then id) or by id; scores 1.0/0.0/0.0. ' +
      'With a search: ranked, orderBy ignored. totalRecords is exact; totalFilteredRecords is the size of this page.',
  })
  @ApiOkResponse({
    type: TravelListingResponseDto,
    headers: {
      'X-Search-Fallback': {
        description: '`fulltext` when a search was ranked by full text alone.',
        schema: { type: 'string', enum: ['fulltext'] },
      },
    },
  })
  @ApiUnprocessableEntityResponse({
    type: SearchValidationErrorResponseDto,
    description:
      'A parameter is out of bounds, malformed or repeated: `errors` maps each to one message naming it ' +
      '("size must be given once; it was repeated.").',
  })
  @ApiTooManyRequestsResponse({
    type: ErrorResponseDto,
    description:
      '`too_many_requests`: this client address sent more than the flood limit allows ' +
      '(SEARCH_RATE_LIMIT_BURST at once, SEARCH_RATE_LIMIT_PER_SECOND sustained); retry after `Retry-After` seconds.',
    headers: {
      'Retry-After': {
        description: 'Seconds to wait before trying again.',
        schema: { type: 'integer', minimum: 1 },
      },
    },
  })
  @ApiServiceUnavailableResponse({
    type: ErrorResponseDto,
    description:
      '`embedding_unavailable`: with a `search`, the embedding provider cannot answer (and ' +
      'SEARCH_FULLTEXT_FALLBACK is off: with it, a full-text answer with `X-Search-Fallback`).',
  })
  @ApiHeader({ name: 'X-Request-Id', required: false, description: 'Echoed, or generated.' })
  async list(
    @Query() query: TravelsQueryDto,
    @Req() request: Request,
    @Res({ passthrough: true }) response: Response,
  ): Promise<TravelListingResponseDto> {
    // Bytes that are not UTF-8 reach the parser as literal escapes: refused here, by name.
    const url = request.originalUrl;
    const invalid = invalidUtf8Parameters(url.includes('?') ? url.slice(url.indexOf('?') + 1) : '');
    if (invalid) throw AppError.validation(invalid);
    const { body, fallback } = await this.travels.list(query);
    if (fallback) response.setHeader('X-Search-Fallback', fallback);
    return body;
  }
}
