import { ApiProperty } from '@nestjs/swagger';
import { ActivityResponseDto } from '../../activities/dto/activity.response';

/** A plan of a step: the activity with its priority (1 = plan A). */
export class TourStepActivityDto extends ActivityResponseDto {
  @ApiProperty({ type: 'integer', minimum: 1, description: '1 is plan A, 2 plan B …' })
  priority!: number;
}
