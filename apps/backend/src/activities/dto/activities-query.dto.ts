import { PageQueryDto, QueryArrayField, UuidField } from '@rt/contracts';
import { SearchQueryField } from '../../providers/dto/search-field';

/** `GET /tour/activities`: filters and the page (per_page 25 by default, capped silently at 100). */
export class ActivitiesQueryDto extends PageQueryDto {
  @SearchQueryField('Part of the name, any case; blank counts as absent.')
  search?: string;

  @UuidField({ optional: true, description: "Only this provider's activities." })
  provider_id?: string;

  @QueryArrayField('tag_ids[]', {
    uuid: true,
    description: 'Repeat the key (`tag_ids[]=a&tag_ids[]=b`): activities carrying any of these tags.',
  })
  tag_ids?: string[];
}
