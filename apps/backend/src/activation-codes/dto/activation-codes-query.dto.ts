import { IntersectionType } from '@nestjs/swagger';
import { PageQueryDto, UuidField } from '@rt/contracts';
import { ActivationCodeFiltersDto } from './activation-code-filters.dto';

class OrganizationFilterDto {
  @UuidField({ optional: true, description: "Only this organization's codes." })
  organisation_id?: string;
}

/** `GET /activation-codes`: the filters and the page (per_page 25 by default, capped silently at 100). */
export class ActivationCodesQueryDto extends IntersectionType(
  PageQueryDto,
  IntersectionType(ActivationCodeFiltersDto, OrganizationFilterDto),
) {}
