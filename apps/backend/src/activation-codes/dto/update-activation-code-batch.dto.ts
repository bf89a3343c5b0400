import { TextField } from '@rt/contracts';
import { DateTimeField } from './date-time-field';

/** `PATCH /activation-codes/batches/{id}` (super-admin): an absent field stays as it is. */
export class UpdateActivationCodeBatchDto {
  @TextField({ max: 1000, optional: true, nullable: true, description: 'null clears it.' })
  internal_note?: string | null;

  @DateTimeField({
    optional: true,
    nullable: true,
    description:
      "The batch's new expiration, also given to every code of the batch that is not used; null: never.",
  })
  expires_at?: string | null;
}
