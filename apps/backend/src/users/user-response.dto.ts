import { ApiProperty } from '@nestjs/swagger';
import { OrganizationSummaryDto } from '../organizations/organization-summary.dto';
import { MEMBERSHIP_ROLES, type MembershipRole } from '../organizations/membership.entity';
import { PREFERRED_LANGUAGES, type PreferredLanguage } from './user.entity';

/** Signed image URLs by width (200, 600, 1200, 1920 px). */
export class ImageVariantsDto {
  @ApiProperty({ example: '/img/<signature>/rs:fit:200:0/plain/<uuid>.jpg' })
  thumb!: string;

  @ApiProperty()
  medium!: string;

  @ApiProperty()
  large!: string;

  @ApiProperty()
  full!: string;
}

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

export class UserResponseDto {
  @ApiProperty({ format: 'uuid' })
  id!: string;

  @ApiProperty({ format: 'email', example: 'ada@example.com' })
  email!: string;

  @ApiProperty({ example: 'Ada' })
  first_name!: string;

  @ApiProperty({ example: 'Lovelace' })
  last_name!: string;

  @ApiProperty({ enum: PREFERRED_LANGUAGES, enumName: 'PreferredLanguage' })
  preferred_language!: PreferredLanguage;

  @ApiProperty({ description: 'A super-admin holds every viewing hat.' })
  is_super_admin!: boolean;

  @ApiProperty({ type: 'string', format: 'uuid', nullable: true })
  profile_picture_id!: string | null;

  @ApiProperty({
    type: () => ImageVariantsDto,
    nullable: true,
    description: 'The profile picture in every width, or null without a picture.',
  })
  profile_picture!: ImageVariantsDto | null;

  @ApiProperty({
    type: () => MembershipDto,
    isArray: true,
    description: 'Each gives the hat `organization:<id>`.',
  })
  memberships!: MembershipDto[];
}
