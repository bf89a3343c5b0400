import { IntegerField, TextField, UuidField } from '@rt/contracts';
import { DateTimeField } from './date-time-field';

export const MAX_CODES_PER_BATCH = 100_000;

/** `POST /activation-codes/batches` (super-admin): one batch of new codes for an organization. */
export class GenerateActivationCodesDto {
  @UuidField({ description: 'The organization the codes belong to; unknown → 422.' })
  organisation_id!: string;

  @IntegerField({ min: 1, max: MAX_CODES_PER_BATCH, description: 'How many codes to generate.' })
  count!: number;

  @DateTimeField({
    optional: true,
    nullable: true,
    description: 'When the codes expire; absent or null: never.',
  })
  expires_at?: string | null;

  @TextField({ max: 1000, optional: true, nullable: true, description: 'Seen by super-admins only.' })
  internal_note?: string | null;
}
