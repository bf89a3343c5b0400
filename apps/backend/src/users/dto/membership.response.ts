import { ApiProperty } from '@nestjs/swagger';
import { MEMBERSHIP_ROLES, type MembershipRole } from '../../access/access';
import { OrganizationSummaryDto } from '../../organizations/dto/organization-summary.response';

/** One membership of the user resource: the organization (its hat `organization:<id>`) and the role. */
export class MembershipDto {
  @ApiProperty({ type: () => OrganizationSummaryDto })
  organization!: OrganizationSummaryDto;

  @ApiProperty({
    enum: MEMBERSHIP_ROLES,
    enumName: 'MembershipRole',
    description: 'The manager is the contact.',
  })
  role!: MembershipRole;
}
