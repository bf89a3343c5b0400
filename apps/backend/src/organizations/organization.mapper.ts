import { OrganizationListItemDto } from './dto/organization-list-item.response';
import { OrganizationMemberDto } from './dto/organization-member.response';
import { OrganizationSummaryDto } from './dto/organization-summary.response';
import { OrganizationResponseDto } from './dto/organization.response';
import type { Organization } from './organization.entity';
import type { MemberView, OrganizationView } from './organizations.repository';

export const toOrganizationSummary = (o: Organization | OrganizationView): OrganizationSummaryDto => ({
  id: o.id,
  name: o.name,
  type: o.type,
  status: o.status,
});

export const toOrganizationListItem = (o: OrganizationView): OrganizationListItemDto => ({
  ...toOrganizationSummary(o),
  description: o.description,
  contact_email: o.contactEmail,
  commission: o.commission,
  commission_type: o.commissionType,
  activation_codes_count: o.activationCodesCount,
  activation_codes_in_stock_count: o.activationCodesInStockCount,
  created_at: o.createdAt.toISOString(),
});

export const toOrganizationMember = (m: MemberView): OrganizationMemberDto => ({
  id: m.userId,
  email: m.email,
  first_name: m.firstName,
  last_name: m.lastName,
  role: m.role,
});

export const toOrganizationResponse = (
  o: OrganizationView,
  members: MemberView[],
): OrganizationResponseDto => ({
  ...toOrganizationListItem(o),
  members: members.map(toOrganizationMember),
});
