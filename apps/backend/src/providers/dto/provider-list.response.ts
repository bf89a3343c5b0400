import { ApiProperty } from '@nestjs/swagger';
import { PageMetaDto } from '@rt/contracts';
import { ProviderListItemDto } from './provider-list-item.response';

/** `GET /tour/providers`: one page, nearest first with a point, else by name. */
export class ProviderListResponseDto {
  @ApiProperty({ type: () => ProviderListItemDto, isArray: true })
  data!: ProviderListItemDto[];

  @ApiProperty({ type: () => PageMetaDto })
  meta!: PageMetaDto;
}
