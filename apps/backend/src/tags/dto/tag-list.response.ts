import { ApiProperty } from '@nestjs/swagger';
import { PageMetaDto } from '@rt/contracts';
import { TagResponseDto } from './tag.response';

/** `GET /tags`: one page, by type, French name, id. */
export class TagListResponseDto {
  @ApiProperty({ type: () => TagResponseDto, isArray: true })
  data!: TagResponseDto[];

  @ApiProperty({ type: () => PageMetaDto })
  meta!: PageMetaDto;
}
