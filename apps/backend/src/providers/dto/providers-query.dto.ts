import { PageQueryDto } from '@rt/contracts';
import { QueryCoordinateField } from './coordinate-fields';
import { SearchQueryField } from './search-field';

/**
 * `GET /tour/providers`: the name search, the point to search around and the page (per_page 25 by
 * default, capped silently at 100).
 */
export class ProvidersQueryDto extends PageQueryDto {
  @SearchQueryField('Part of the name, any case; blank counts as absent.')
  search?: string;

  @QueryCoordinateField('latitude')
  latitude?: number;

  @QueryCoordinateField('longitude')
  longitude?: number;
}
