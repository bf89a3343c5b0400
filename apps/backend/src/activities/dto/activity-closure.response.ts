import { ApiProperty } from '@nestjs/swagger';

/** A closure of an activity: both dates inclusive. */
export class ActivityClosureResponseDto {
  @ApiProperty({ format: 'uuid' })
  id!: string;

  @ApiProperty({ format: 'uuid' })
  activity_id!: string;

  @ApiProperty({ format: 'date', example: '2026-12-24' })
  starts_on!: string;

  @ApiProperty({ format: 'date', example: '2026-12-26' })
  ends_on!: string;

  @ApiProperty({ type: 'string', nullable: true })
  reason!: string | null;

  @ApiProperty({ format: 'date-time' })
  created_at!: string;
}
