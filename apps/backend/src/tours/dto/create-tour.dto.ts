import { ColorField, TextField, UuidField } from '@rt/contracts';
import { SingleLine } from '../../common/single-line';
import { ProhibitedField } from './prohibited-field';

/** `POST /tour` (super-admin): a tour created `pending`; `status` is refused (422). */
export class CreateTourDto {
  @SingleLine()
  @TextField({ max: 255, example: 'Alps loop' })
  name!: string;

  @ColorField()
  color!: string;

  @UuidField({ description: 'An existing organization (else 422).' })
  partner_organization_id!: string;

  @UuidField({
    optional: true,
    nullable: true,
    description: 'An organization of type `region` (else 422); absent or null: no region.',
  })
  region_organization_id?: string | null;

  /** Not part of the contract: present only to be refused. */
  @ProhibitedField('a tour is created pending; change it with PUT /tour/{id}.')
  status?: unknown;
}
