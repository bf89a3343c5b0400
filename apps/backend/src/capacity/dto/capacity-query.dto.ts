import { QueryDateField } from '@rt/contracts';

/** Query of `GET /organizations/{id}/capacity`: one date, or a range of at most 62 days. */
export class CapacityQueryDto {
  @QueryDateField('The departure date; today in Europe/Zurich by default. Not with `from`/`to`.')
  date?: string;

  @QueryDateField('The range form: the first departure date (with `to`, not with `date`).')
  from?: string;

  @QueryDateField('The range form: the last departure date, on or after `from`, at most 61 days later.')
  to?: string;
}
