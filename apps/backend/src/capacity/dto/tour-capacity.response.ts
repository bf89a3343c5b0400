import { ApiProperty } from '@nestjs/swagger';
import { MeasureDto } from './measure.response';

/** One active tour of the region on the departure date. */
export class TourCapacityDto {
  @ApiProperty({ format: 'uuid' })
  tour_id!: string;

  @ApiProperty({ example: 'Alps loop' })
  name!: string;

  @ApiProperty({
    type: () => MeasureDto,
    description:
      'The tour’s capacity for travellers departing on the date, bookings not subtracted ' +
      '(`saturation` carries them): the minimum over its dated ' +
      'steps of each step’s capacity, step k evaluated on date + k − 1. A step’s capacity is the ' +
      'sum over its plans (overflow from plan A goes to B …) of each activity’s offer on that day: ' +
      'closed → exact 0, `unlimited` → unlimited, an integer → exact, null → unknown. In the ' +
      'minimum, unlimited steps are ignored (all unlimited → unlimited). No dated step → unknown; ' +
      'a dated step without plans → exact 0.',
  })
  capacity!: MeasureDto;

  @ApiProperty({
    type: () => MeasureDto,
    description:
      'The largest fill rate over its dated steps: demand (travellers of the tour’s trips departing ' +
      'on the date; trips that departed earlier do not count) / step capacity. An unlimited step ' +
      'fills 0; an unknown step is unknown; demand on an exact 0 is unlimited (any unlimited fill ' +
      'rate wins).',
  })
  saturation!: MeasureDto;

  @ApiProperty({
    type: 'integer',
    minimum: 0,
    description:
      'Steps without `day_number`: they cannot be placed on a day and are left out of both figures.',
  })
  unplaceable_steps_count!: number;
}
