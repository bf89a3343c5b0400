import { ApiProperty } from '@nestjs/swagger';
import { PageMetaDto } from '@rt/contracts';
import { OrganizationListItemDto } from './organization-list-item.response';

/** `GET /organizations`: one page, by name then id. */
export class OrganizationListResponseDto {
  @ApiProperty({ type: () => OrganizationListItemDto, isArray: true })
  data!: OrganizationListItemDto[];

  @ApiProperty({ type: () => PageMetaDto })
  meta!: PageMetaDto;
}
