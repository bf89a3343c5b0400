import { ApiProperty } from '@nestjs/swagger';
import { TOUR_STATUSES, type TourStatus } from '../tour.entity';

/** A tour without its steps (`GET /tour`, `POST /tour`, `PUT /tour/{id}`). */
export class TourResponseDto {
  @ApiProperty({ format: 'uuid' })
  id!: string;

  @ApiProperty({ example: 'Alps loop' })
  name!: string;

  @ApiProperty({ example: '#1A2B3C' })
  color!: string;

  @ApiProperty({ enum: TOUR_STATUSES, enumName: 'TourStatus' })
  status!: TourStatus;

  @ApiProperty({ format: 'uuid' })
  partner_organization_id!: string;

  @ApiProperty({ type: 'string', format: 'uuid', nullable: true })
  region_organization_id!: string | null;

  @ApiProperty({ format: 'date-time' })
  created_at!: string;

  @ApiProperty({ format: 'date-time' })
  updated_at!: string;
}
