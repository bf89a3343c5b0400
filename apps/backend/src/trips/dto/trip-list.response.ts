import { ApiProperty } from '@nestjs/swagger';
import { PageMetaDto } from '@rt/contracts';
import { TripResponseDto } from './trip.response';

/** `GET /trips`: one page of the caller's trips, newest first. */
export class TripListResponseDto {
  @ApiProperty({ type: () => TripResponseDto, isArray: true })
  data!: TripResponseDto[];

  @ApiProperty({ type: () => PageMetaDto })
  meta!: PageMetaDto;
}
