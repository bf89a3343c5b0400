import { ApiProperty } from '@nestjs/swagger';
import { CODE_STATUSES, type CodeStatus } from '../activation-code-status';

const TIMESTAMP = { type: 'string', format: 'date-time', nullable: true } as const;

/** The code resource (docs/backend-api.md). Timestamps are ISO 8601 UTC, null when absent. */
export class ActivationCodeResponseDto {
  @ApiProperty({ format: 'uuid' })
  id!: string;

  @ApiProperty({ example: 'ABCD-EFGH-JKLM' })
  full_code!: string;

  @ApiProperty({
    enum: CODE_STATUSES,
    enumName: 'ActivationCodeStatus',
    description:
      'Derived, the first flag that holds: reimbursed > cancelled > active > used > expired > purchased > in stock.',
  })
  status!: CodeStatus;

  @ApiProperty()
  is_reimbursed!: boolean;

  @ApiProperty({ description: 'A reimbursed code is cancelled too.' })
  is_cancelled!: boolean;

  @ApiProperty({ description: 'A trip was started on the code (`used_at` is set).' })
  is_used!: boolean;

  @ApiProperty({ description: '`expires_at` is in the past.' })
  is_expired!: boolean;

  @ApiProperty({ description: 'A trip runs on the code now (none before trips exist).' })
  is_active!: boolean;

  @ApiProperty()
  is_purchased!: boolean;

  @ApiProperty(TIMESTAMP)
  purchased_at!: string | null;

  @ApiProperty({ ...TIMESTAMP, description: 'Set when a trip starts on the code.' })
  used_at!: string | null;

  @ApiProperty({ ...TIMESTAMP, description: 'Null: the code never expires.' })
  expires_at!: string | null;

  @ApiProperty(TIMESTAMP)
  cancelled_at!: string | null;

  @ApiProperty(TIMESTAMP)
  reimbursed_at!: string | null;

  @ApiProperty({ format: 'uuid' })
  organisation_id!: string;

  @ApiProperty({ format: 'uuid' })
  batch_id!: string;

  @ApiProperty({ type: 'integer' })
  batch_number!: number;

  @ApiProperty({ type: 'string', format: 'date-time' })
  created_at!: string;
}
