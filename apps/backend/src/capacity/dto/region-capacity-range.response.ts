import { ApiProperty } from '@nestjs/swagger';
import { RegionCapacityResponseDto } from './region-capacity.response';

/** The range form: one roll-up per departure date from `from` through `to`. */
export class RegionCapacityRangeResponseDto {
  @ApiProperty({ format: 'uuid' })
  organization_id!: string;

  @ApiProperty({ format: 'date', example: '2026-11-24' })
  from!: string;

  @ApiProperty({ format: 'date', example: '2026-12-24' })
  to!: string;

  @ApiProperty({
    type: () => RegionCapacityResponseDto,
    isArray: true,
    description: 'The one-day body of each date from `from` through `to`, in date order.',
  })
  days!: RegionCapacityResponseDto[];
}
