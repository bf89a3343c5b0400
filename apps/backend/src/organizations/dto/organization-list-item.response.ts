import { ApiProperty } from '@nestjs/swagger';
import { COMMISSION_TYPES, type CommissionType } from '../organization.entity';
import { OrganizationSummaryDto } from './organization-summary.response';

/** An organization in `GET /organizations`: the resource without its members. */
export class OrganizationListItemDto extends OrganizationSummaryDto {
  @ApiProperty({ type: 'string', nullable: true, example: 'Guided tours in the Alps.' })
  description!: string | null;

  @ApiProperty({
    type: 'string',
    format: 'idn-email',
    nullable: true,
    description:
      "The manager's email, else that of the existing account a signup named as its contact while " +
      'its consent is awaited (no manager until then); null when there is neither.',
  })
  contact_email!: string | null;

  @ApiProperty({
    type: 'string',
    pattern: '^[0-9]+\\.[0-9]{2}$',
    example: '12.50',
    description: 'A decimal written with two decimals (a number on input). Default `0.00`.',
  })
  commission!: string;

  @ApiProperty({ enum: COMMISSION_TYPES, enumName: 'CommissionType', description: 'Default `percent`.' })
  commission_type!: CommissionType;

  @ApiProperty({ type: 'integer', minimum: 0, description: "Count of the organization's activation codes." })
  activation_codes_count!: number;

  @ApiProperty({ type: 'integer', minimum: 0, description: 'Count of its activation codes in stock.' })
  activation_codes_in_stock_count!: number;

  @ApiProperty({ type: 'string', format: 'date-time', example: '2026-11-24T10:00:00.000Z' })
  created_at!: string;
}
