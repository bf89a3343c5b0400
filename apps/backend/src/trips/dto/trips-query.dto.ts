import { PageQueryDto } from '@rt/contracts';

/** Query of `GET /trips`: `page` and `per_page` (25 by default, at most 100). */
export class TripsQueryDto extends PageQueryDto {}
