import { applyDecorators } from '@nestjs/common';
import { ApiProperty } from '@nestjs/swagger';
import { ValidateBy } from 'class-validator';
import { ORGANIZATION_STATUSES } from '../organization.entity';

export const STATUS_TARGETS = ['approved', 'suspended'] as const;
export type StatusTarget = (typeof STATUS_TARGETS)[number];

const statusProblem = (value: unknown): string | null => {
  if (value === undefined || value === null || value === '') return 'The status field is required.';
  if (value === 'pending') return 'An organization cannot return to pending.';
  return (STATUS_TARGETS as readonly unknown[]).includes(value)
    ? null
    : `The status field must be one of: ${STATUS_TARGETS.join(', ')}.`;
};

/** `approved` or `suspended`; `pending` is refused with its own message (never a way back). */
const StatusTargetField = () =>
  applyDecorators(
    ValidateBy({
      name: 'statusTarget',
      validator: {
        validate: (value: unknown) => statusProblem(value) === null,
        defaultMessage: (args) => statusProblem(args?.value) ?? '',
      },
    }),
    ApiProperty({
      enum: STATUS_TARGETS,
      enumName: 'OrganizationStatusTarget',
      description: `One of the statuses (${ORGANIZATION_STATUSES.join(', ')}) but pending: an organization never returns to pending (422).`,
    }),
  );

/** `PATCH /organizations/{id}/status` (super-admin). */
export class UpdateOrganizationStatusDto {
  @StatusTargetField()
  status!: StatusTarget;
}
