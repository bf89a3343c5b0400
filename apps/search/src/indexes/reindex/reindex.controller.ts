import { Controller, Get, Header } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiServiceUnavailableResponse, ApiTags } from '@nestjs/swagger';
import { ErrorResponseDto } from '@rt/contracts';
import { ReindexResponseDto } from './dto/reindex.response';
import { toReindexResponse } from './reindex.mapper';
import { ReindexService } from './reindex.service';

@ApiTags('operations')
@Controller('reindex')
export class ReindexController {
  constructor(private readonly reindex: ReindexService) {}

  @Get()
  @Header('Cache-Control', 'no-store')
  @ApiOperation({
    summary: 'Rebuild the index in the background',
    description:
      'Answers at once. A trigger while a rebuild runs is ignored (still 200). Open: protect it at the reverse proxy when exposed.',
  })
  @ApiOkResponse({ type: ReindexResponseDto })
  @ApiServiceUnavailableResponse({
    type: ErrorResponseDto,
    description:
      '`service_unavailable` (with `Retry-After`): the primary database, where the rebuild writes, cannot be reached.',
  })
  async trigger(): Promise<ReindexResponseDto> {
    return toReindexResponse(await this.reindex.trigger('http'), new Date());
  }
}
