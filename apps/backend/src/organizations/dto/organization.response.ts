import { ApiProperty } from '@nestjs/swagger';
import { OrganizationListItemDto } from './organization-list-item.response';
import { OrganizationMemberDto } from './organization-member.response';

/** The organization resource with its members (`GET /organization`, create, update, status). */
export class OrganizationResponseDto extends OrganizationListItemDto {
  @ApiProperty({
    type: () => OrganizationMemberDto,
    isArray: true,
    description: 'The manager first, then the members by last name.',
  })
  members!: OrganizationMemberDto[];
}
