import { ApiProperty } from '@nestjs/swagger';
import { CODE_ACTIONS, type CodeAction } from '../activation-code-event.entity';
import { CODE_STATUSES, type CodeStatus } from '../activation-code-status';

/** One move of a code's history. */
export class ActivationCodeEventDto {
  @ApiProperty({ enum: CODE_ACTIONS, enumName: 'ActivationCodeAction' })
  action!: CodeAction;

  @ApiProperty({
    enum: CODE_STATUSES,
    enumName: 'ActivationCodeStatus',
    nullable: true,
    description: 'Null for the generation.',
  })
  from_status!: CodeStatus | null;

  @ApiProperty({ enum: CODE_STATUSES, enumName: 'ActivationCodeStatus' })
  to_status!: CodeStatus;

  @ApiProperty({ type: 'string', format: 'uuid', nullable: true, description: 'Who made the move.' })
  actor_user_id!: string | null;

  @ApiProperty({ type: 'string', format: 'date-time' })
  at!: string;

  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    nullable: true,
    description: 'What else the move recorded, e.g. `{ "from": …, "to": … }` for an expiration.',
  })
  details!: Record<string, unknown> | null;
}
