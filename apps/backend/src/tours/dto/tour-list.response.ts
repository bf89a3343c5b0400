import { ApiProperty } from '@nestjs/swagger';
import { PageMetaDto } from '@rt/contracts';
import { TourResponseDto } from './tour.response';

/** `GET /tour`: one page, newest first, without steps. */
export class TourListResponseDto {
  @ApiProperty({ type: () => TourResponseDto, isArray: true })
  data!: TourResponseDto[];

  @ApiProperty({ type: () => PageMetaDto })
  meta!: PageMetaDto;
}
