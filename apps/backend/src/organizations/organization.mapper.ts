import { OrganizationSummaryDto } from './organization-summary.dto';
import { Organization } from './organization.entity';

export const toOrganizationSummary = (o: Organization): OrganizationSummaryDto => ({
  id: o.id,
  name: o.name,
  type: o.type,
  status: o.status,
});
