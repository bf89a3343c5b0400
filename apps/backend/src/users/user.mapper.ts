import { Membership } from '../organizations/membership.entity';
import { toOrganizationSummary } from '../organizations/organization.mapper';
import { UserResponseDto } from './dto/user.response';
import { User } from './user.entity';

export const toUserResponse = (u: User, memberships: Membership[]): UserResponseDto => ({
  id: u.id,
  email: u.email,
  first_name: u.firstName,
  last_name: u.lastName,
  preferred_language: u.preferredLanguage,
  is_super_admin: u.isSuperAdmin,
  profile_picture_id: u.profilePictureId,
  // Image variants arrive with the images feature; until then no user has a picture.
  profile_picture: null,
  memberships: memberships
    .filter((m) => m.organization)
    .map((m) => ({ organization: toOrganizationSummary(m.organization!), role: m.role })),
});
