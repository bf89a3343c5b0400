import { ApiProperty } from '@nestjs/swagger';
import {
  ORGANIZATION_STATUSES,
  ORGANIZATION_TYPES,
  type OrganizationStatus,
  type OrganizationType,
} from '../organization.entity';

export class OrganizationSummaryDto {
  @ApiProperty({ format: 'uuid' })
  id!: string;

  @ApiProperty({ example: 'Alpine Adventures' })
  name!: string;

  @ApiProperty({ enum: ORGANIZATION_TYPES, enumName: 'OrganizationType' })
  type!: OrganizationType;

  @ApiProperty({ enum: ORGANIZATION_STATUSES, enumName: 'OrganizationStatus' })
  status!: OrganizationStatus;
}
