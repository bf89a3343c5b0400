import { ApiProperty } from '@nestjs/swagger';
import { CodeCountsDto } from './code-counts.response';

/** The batch resource: the codes generated in one call, with their counts by status. */
export class ActivationCodeBatchResponseDto {
  @ApiProperty({ format: 'uuid' })
  id!: string;

  @ApiProperty({ format: 'uuid' })
  organisation_id!: string;

  @ApiProperty({ type: 'integer', minimum: 1, description: '1, 2, 3 … within the organization, no gap.' })
  batch_number!: number;

  @ApiProperty({ type: 'string', nullable: true })
  internal_note!: string | null;

  @ApiProperty({ type: 'string', format: 'date-time', nullable: true, description: 'Null: never.' })
  expires_at!: string | null;

  @ApiProperty({ type: 'string', format: 'date-time' })
  created_at!: string;

  @ApiProperty({ type: () => CodeCountsDto, description: 'Computed when answered, never stored.' })
  code_counts!: CodeCountsDto;
}
