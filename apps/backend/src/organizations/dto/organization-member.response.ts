import { ApiProperty } from '@nestjs/swagger';
import { MEMBERSHIP_ROLES, type MembershipRole } from '../../access/access';

/** A member of an organization (details only). */
export class OrganizationMemberDto {
  @ApiProperty({ format: 'uuid', description: "The user's id." })
  id!: string;

  @ApiProperty({ format: 'idn-email', example: 'ada@example.com' })
  email!: string;

  @ApiProperty({ example: 'Ada' })
  first_name!: string;

  @ApiProperty({ example: 'Lovelace' })
  last_name!: string;

  @ApiProperty({
    enum: MEMBERSHIP_ROLES,
    enumName: 'MembershipRole',
    description: 'The manager is the contact.',
  })
  role!: MembershipRole;
}
