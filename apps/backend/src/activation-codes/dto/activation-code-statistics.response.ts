import { ApiProperty } from '@nestjs/swagger';
import { StatusCountsDto } from './code-counts.response';

/** `GET /activation-codes/statistics`. */
export class ActivationCodeStatisticsResponseDto {
  @ApiProperty({ type: 'integer', minimum: 0 })
  total!: number;

  @ApiProperty({
    type: () => StatusCountsDto,
    description: 'Every one of the seven statuses, zeros included.',
  })
  by_status!: StatusCountsDto;
}
