import { ApiProperty } from '@nestjs/swagger';
import { PageMetaDto } from '@rt/contracts';
import { ActivityResponseDto } from './activity.response';

/** `GET /tour/activities`: one page, by name then id. */
export class ActivityListResponseDto {
  @ApiProperty({ type: () => ActivityResponseDto, isArray: true })
  data!: ActivityResponseDto[];

  @ApiProperty({ type: () => PageMetaDto })
  meta!: PageMetaDto;
}
