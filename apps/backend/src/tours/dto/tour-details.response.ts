import { ApiProperty } from '@nestjs/swagger';
import { TourStepResponseDto } from './tour-step.response';
import { TourResponseDto } from './tour.response';

/** `GET /tour/{id}`: the tour with its steps, by position. */
export class TourDetailsResponseDto extends TourResponseDto {
  @ApiProperty({ type: () => TourStepResponseDto, isArray: true, description: 'By position.' })
  steps!: TourStepResponseDto[];
}
