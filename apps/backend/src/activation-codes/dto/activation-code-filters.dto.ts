import { QueryArrayField, QueryDateTimeField, QueryTextField } from '@rt/contracts';
import { CODE_STATUSES, type CodeStatus } from '../activation-code-status';

export const MAX_SEARCH_LENGTH = 100;

/** The filters the listing and the export share (the organization filter differs: scalar or array). */
export class ActivationCodeFiltersDto {
  @QueryArrayField('status[]', {
    values: CODE_STATUSES,
    enumName: 'ActivationCodeStatus',
    maxItems: CODE_STATUSES.length,
    description:
      'Repeat the key (`status[]=purchased&status[]=in stock`); a code matches any of them. Any other value → 422.',
  })
  status?: CodeStatus[];

  @QueryDateTimeField('Only codes expiring at or after this instant (codes without expiration are left out).')
  expires_from?: string;

  @QueryDateTimeField(
    'Only codes expiring at or before this instant (codes without expiration are left out).',
  )
  expires_to?: string;

  @QueryTextField({
    max: MAX_SEARCH_LENGTH,
    description: 'Part of the code, any case (`efgh`, `CD-EF`); blank counts as absent.',
  })
  search?: string;
}
