import { QueryArrayField } from '@rt/contracts';
import { ActivationCodeFiltersDto } from './activation-code-filters.dto';

/** `GET /activation-codes/export`: the listing's filters, `organisation_id[]` an array, no page. */
export class ActivationCodesExportQueryDto extends ActivationCodeFiltersDto {
  @QueryArrayField('organisation_id[]', {
    uuid: true,
    description:
      "Repeat the key (`organisation_id[]=a&organisation_id[]=b`): these organizations' codes; absent: all.",
  })
  organisation_id?: string[];
}
