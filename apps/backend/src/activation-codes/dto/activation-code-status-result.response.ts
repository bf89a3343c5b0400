import { ApiProperty } from '@nestjs/swagger';
import { BulkSkippedDto } from '@rt/contracts';
import { ActivationCodeResponseDto } from './activation-code.response';

/** `PUT /activation-codes/status`: HTTP 200 even when some ids are skipped (a partial success). */
export class ActivationCodeStatusResultDto {
  @ApiProperty({
    type: () => ActivationCodeResponseDto,
    isArray: true,
    description: 'The codes in the requested state, as they are now.',
  })
  updated!: ActivationCodeResponseDto[];

  @ApiProperty({
    type: () => BulkSkippedDto,
    isArray: true,
    description:
      'The ids left alone, with `reason`: `not_found`, `already_cancelled`, `already_reimbursed`, `code_used`, `not_purchased` or `not_renewable`.',
  })
  skipped!: BulkSkippedDto[];
}
