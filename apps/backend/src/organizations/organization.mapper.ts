import { OrganizationSummaryDto } from './dto/organization-summary.response';
import { Organization } from './organization.entity';

export const toOrganizationSummary = (o: Organization): OrganizationSummaryDto => ({
  id: o.id,
  name: o.name,
  type: o.type,
  status: o.status,
});
