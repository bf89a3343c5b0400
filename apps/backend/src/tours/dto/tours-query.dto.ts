import { PageQueryDto, QueryArrayField, UuidField } from '@rt/contracts';
import { SearchQueryField } from '../../providers/dto/search-field';
import { TOUR_STATUSES, type TourStatus } from '../tour.entity';

/** `GET /tour`: filters and the page (per_page 25 by default, capped silently at 100). No region filter. */
export class ToursQueryDto extends PageQueryDto {
  @SearchQueryField('Part of the name, any case; blank counts as absent.')
  search?: string;

  @QueryArrayField('status[]', {
    values: TOUR_STATUSES,
    enumName: 'TourStatus',
    maxItems: TOUR_STATUSES.length,
    description:
      'Repeat the key (`status[]=pending&status[]=active`); a tour matches any. Any other value → 422.',
  })
  status?: TourStatus[];

  @UuidField({ optional: true, description: "Only this partner organization's tours." })
  partner_organization_id?: string;
}
