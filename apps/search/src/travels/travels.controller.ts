import { Controller, Get, Query, Res } from '@nestjs/common';
import {
  ApiHeader,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
  ApiUnprocessableEntityResponse,
} from '@nestjs/swagger';
import { ValidationErrorResponseDto } from '@rt/contracts';
import type { Response } from 'express';
import { TravelListingResponseDto } from './dto/travel-listing.response';
import { TravelsQueryDto } from './dto/travels-query.dto';
import { TravelsService } from './travels.service';

@ApiTags('travels')
@Controller('travels')
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
    type: ValidationErrorResponseDto,
    description: 'A parameter is out of bounds or malformed.',
  })
  @ApiHeader({ name: 'X-Request-Id', required: false, description: 'Echoed, or generated.' })
  async list(
    @Query() query: TravelsQueryDto,
    @Res({ passthrough: true }) response: Response,
  ): Promise<TravelListingResponseDto> {
    const { body, fallback } = await this.travels.list(query);
    if (fallback) response.setHeader('X-Search-Fallback', fallback);
    return body;
  }
}
