import { ApiProperty } from '@nestjs/swagger';
import { MeasureDto } from './measure.response';
import { TourCapacityDto } from './tour-capacity.response';

/** The capacity roll-up of a region for one departure date (docs/backend-api.md "Region capacity"). */
export class RegionCapacityResponseDto {
  @ApiProperty({ format: 'uuid' })
  organization_id!: string;

  @ApiProperty({ format: 'date', example: '2026-11-24', description: 'The departure date D.' })
  date!: string;

  @ApiProperty({
    type: () => MeasureDto,
    description:
      'The sum over its active tours of their capacities: any unlimited tour → unlimited; all ' +
      'exact → exact; known and unknown mixed → partial (the known ones summed); all unknown → ' +
      'unknown. No active tour → exact 0.',
  })
  capacity!: MeasureDto;

  @ApiProperty({
    type: () => MeasureDto,
    description:
      'Region demand (travellers of the trips of its active tours departing on D) / region ' +
      'capacity: unlimited capacity → exact 0; unknown → unknown; exact → exact; partial → ' +
      'partial. On a capacity of exact 0: no demand → 0, demand → unlimited.',
  })
  saturation!: MeasureDto;

  @ApiProperty({
    type: () => TourCapacityDto,
    isArray: true,
    description: 'One entry per `active` tour linked to the region, by name then id.',
  })
  tours!: TourCapacityDto[];
}
