import type { ImageVariants } from '../images/image-urls';
import { Membership } from '../organizations/membership.entity';
import { toOrganizationSummary } from '../organizations/organization.mapper';
import { UserResponseDto } from './dto/user.response';
import { User } from './user.entity';

export const toUserResponse = (
  u: User,
  memberships: Membership[],
  profilePicture: ImageVariants | null,
  pendingEmail: string | null,
): UserResponseDto => ({
  id: u.id,
  email: u.email,
  pending_email: pendingEmail,
  first_name: u.firstName,
  last_name: u.lastName,
  preferred_language: u.preferredLanguage,
  is_super_admin: u.isSuperAdmin,
  profile_picture_id: u.profilePictureId,
  profile_picture: profilePicture,
  memberships: memberships
    .filter((m) => m.organization)
    .map((m) => ({ organization: toOrganizationSummary(m.organization!), role: m.role })),
});
