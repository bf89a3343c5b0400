import { ApiProperty } from '@nestjs/swagger';
import { EnumField } from '@rt/contracts';
import type { ChecksItems, FieldErrors } from '@rt/errors';
import { isUUID, ValidateBy, ValidationArguments } from 'class-validator';
import { DateTimeField } from './date-time-field';

export const MAX_IDS_PER_CALL = 1000;

export const TARGET_STATUSES = ['cancelled', 'reimbursed', 'purchased'] as const;
export type TargetStatus = (typeof TARGET_STATUSES)[number];

const idsMessage = (value: unknown): string | null => {
  if (value === undefined || value === null) return 'The ids field is required.';
  if (!Array.isArray(value)) return 'The ids field must be a list of UUIDs.';
  const distinct = new Set(value);
  if (distinct.size === 0) return 'The ids field must have at least 1 item.';
  if (distinct.size > MAX_IDS_PER_CALL)
    return `The ids field must not have more than ${MAX_IDS_PER_CALL} items.`;
  return null;
};

/**
 * `PUT /activation-codes/status` (super-admin). Each item of `ids` is checked on its own (422 under
 * `ids.<index>`, by `itemErrors`, which the validation pipe calls) once every field is fine.
 */
export class UpdateActivationCodeStatusDto implements ChecksItems {
  @ValidateBy({
    name: 'idsField',
    validator: {
      validate: (value: unknown) => idsMessage(value) === null,
      defaultMessage: (args?: ValidationArguments) => idsMessage(args?.value) ?? '',
    },
  })
  @ApiProperty({
    type: 'array',
    items: { type: 'string', format: 'uuid' },
    minItems: 1,
    maxItems: MAX_IDS_PER_CALL,
    description: `1 to ${MAX_IDS_PER_CALL} code ids (a repeated id counts once); an item that is not a UUID → 422 under \`ids.<index>\`.`,
  })
  ids!: string[];

  @EnumField(TARGET_STATUSES, 'ActivationCodeTargetStatus', {
    description:
      '`cancelled`, `reimbursed` (also cancels), or `purchased` with `new_expiration` (a renewal).',
  })
  status!: TargetStatus;

  @DateTimeField({
    optional: true,
    description:
      'Required with `purchased` (the renewal: the one new expiration of every id); refused with the other statuses.',
  })
  new_expiration?: string;

  /** `ids.<index>` for each item that is not a UUID (a string in the UUID form). */
  itemErrors(): FieldErrors {
    return Object.fromEntries(
      this.ids.flatMap((id, index) =>
        typeof id === 'string' && isUUID(id)
          ? []
          : [[`ids.${index}`, [`The ids.${index} field must be a valid UUID.`]]],
      ),
    );
  }
}
