import { ApiProperty } from '@nestjs/swagger';
import { ProviderResponseDto } from './provider.response';

/** A provider in the search results, with its distance to the point searched around. */
export class ProviderListItemDto extends ProviderResponseDto {
  @ApiProperty({
    type: 'integer',
    nullable: true,
    example: 224351,
    description:
      'Great-circle distance in metres (rounded) to the given latitude and longitude; null when no point is given.',
  })
  distance_meters!: number | null;
}
