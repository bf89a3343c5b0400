import { ApiProperty } from '@nestjs/swagger';
import { PREFERRED_LANGUAGES, type PreferredLanguage } from '../../common/preferred-language';
import { ImageVariantsDto } from '../../images/dto/image-variants.response';
import { MembershipDto } from './membership.response';

/** The user resource (`GET|PUT /user`, `POST /login`). */
export class UserResponseDto {
  @ApiProperty({ format: 'uuid' })
  id!: string;

  @ApiProperty({ format: 'idn-email', example: 'ada@example.com' })
  email!: string;

  @ApiProperty({
    type: 'string',
    format: 'idn-email',
    nullable: true,
    example: null,
    description:
      'The address of a change asked with `PUT /user` and not yet confirmed through the link mailed to it; null when none.',
  })
  pending_email!: string | null;

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
