import { ApiProperty } from '@nestjs/swagger';

const COUNT = { type: 'integer', minimum: 0 } as const;

/** The number of codes in each derived status, and their total. Numbers, never strings. */
export class CodeCountsDto {
  @ApiProperty(COUNT)
  total!: number;

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
