import { ApiProperty, IntersectionType } from '@nestjs/swagger';

const COUNT = { type: 'integer', minimum: 0 } as const;

/** The counts by status alone (statistics' `by_status`). */
export class StatusCountsDto {
  @ApiProperty(COUNT)
  reimbursed!: number;

  @ApiProperty(COUNT)
  cancelled!: number;

  @ApiProperty(COUNT)
  active!: number;

  @ApiProperty(COUNT)
  used!: number;

  @ApiProperty(COUNT)
  expired!: number;

  @ApiProperty(COUNT)
  purchased!: number;

  @ApiProperty({ ...COUNT, name: 'in stock' })
  'in stock'!: number;
}

class TotalCountDto {
  @ApiProperty(COUNT)
  total!: number;
}

/** The number of codes in each derived status, and their total. Numbers, never strings. */
export class CodeCountsDto extends IntersectionType(TotalCountDto, StatusCountsDto) {}
