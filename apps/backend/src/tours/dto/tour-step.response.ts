import { ApiProperty } from '@nestjs/swagger';
import { TourStepActivityDto } from './tour-step-activity.response';

/** A step of a tour. */
export class TourStepResponseDto {
  @ApiProperty({ format: 'uuid' })
  id!: string;

  @ApiProperty({ format: 'uuid' })
  tour_id!: string;

  @ApiProperty({ type: 'integer', minimum: 1, description: 'Its place in the tour, from 1.' })
  position!: number;

  @ApiProperty({ type: 'integer', nullable: true, minimum: 1, description: 'null: undated.' })
  day_number!: number | null;

  @ApiProperty({ type: 'string', nullable: true, example: '09:30:00', description: '`HH:MM:SS`.' })
  time!: string | null;

  @ApiProperty({
    type: 'string',
    nullable: true,
    description: "Plan A's name (a step has no name of its own); null without plans.",
  })
  name!: string | null;

  @ApiProperty({
    type: () => TourStepActivityDto,
    isArray: true,
    description: 'The plans, by priority.',
  })
  activities!: TourStepActivityDto[];
}
