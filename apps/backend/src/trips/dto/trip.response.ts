import { ApiProperty } from '@nestjs/swagger';

/** A trip (`POST /trips`, `GET /trips`, `GET /trips/{id}`). */
export class TripResponseDto {
  @ApiProperty({ format: 'uuid' })
  id!: string;

  @ApiProperty({ format: 'uuid', description: 'The activation code the trip used.' })
  activation_code_id!: string;

  @ApiProperty({
    type: 'string',
    format: 'uuid',
    nullable: true,
    description: 'The tour; null once the tour was deleted.',
  })
  tour_id!: string | null;

  @ApiProperty({ format: 'date', example: '2026-11-24', description: 'The departure day.' })
  starts_on!: string;

  @ApiProperty({
    format: 'date',
    example: '2026-11-26',
    description:
      'The date of the last dated step: starts_on + (largest day_number − 1), starts_on when the ' +
      'tour had no dated step when the trip started. The code is active from starts_on through ' +
      'this day (Europe/Zurich).',
  })
  ends_on!: string;

  @ApiProperty({ type: 'integer', minimum: 1, example: 2 })
  travellers!: number;

  @ApiProperty({ format: 'date-time' })
  created_at!: string;
}
