import { ApiProperty } from '@nestjs/swagger';
import {
  PROVIDER_ORIGINS,
  PROVIDER_STATUSES,
  type ProviderOrigin,
  type ProviderStatus,
} from '../provider.entity';

/** The provider resource (`GET|PUT /tour/provider/{id}`, `POST /tour/provider`). */
export class ProviderResponseDto {
  @ApiProperty({ format: 'uuid' })
  id!: string;

  @ApiProperty({ example: 'Zermatt Mountain Guides' })
  name!: string;

  @ApiProperty({ type: 'string', nullable: true })
  description!: string | null;

  @ApiProperty({ type: 'string', nullable: true })
  address!: string | null;

  @ApiProperty({ type: 'string', nullable: true })
  city!: string | null;

  @ApiProperty({ type: 'string', nullable: true })
  country!: string | null;

  @ApiProperty({ type: 'number', nullable: true, description: 'WGS 84 degrees; null with longitude.' })
  latitude!: number | null;

  @ApiProperty({ type: 'number', nullable: true, description: 'WGS 84 degrees; null with latitude.' })
  longitude!: number | null;

  @ApiProperty({ type: 'string', nullable: true })
  website!: string | null;

  @ApiProperty({ type: 'string', nullable: true })
  phone!: string | null;

  @ApiProperty({ type: 'string', nullable: true })
  email!: string | null;

  @ApiProperty({ enum: PROVIDER_ORIGINS, enumName: 'ProviderOrigin' })
  origin!: ProviderOrigin;

  @ApiProperty({ enum: PROVIDER_STATUSES, enumName: 'ProviderStatus' })
  status!: ProviderStatus;

  @ApiProperty({ format: 'date-time' })
  created_at!: string;

  @ApiProperty({ format: 'date-time' })
  updated_at!: string;
}
