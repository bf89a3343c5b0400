import { TextField } from '@rt/contracts';
import { SingleLine } from '../../common/single-line';
import { CommissionField, CommissionTypeField } from '../commission-fields';
import type { CommissionType } from '../organization.entity';

/** `PATCH /organizations/{id}` (super-admin): an absent field stays as it is. */
export class UpdateOrganizationDto {
  @SingleLine()
  @TextField({ max: 255, optional: true, example: 'Alpine Adventures' })
  name?: string;

  @TextField({ max: 5000, optional: true, nullable: true, description: 'null clears it.' })
  description?: string | null;

  @CommissionField()
  commission?: number;

  @CommissionTypeField()
  commission_type?: CommissionType;
}
