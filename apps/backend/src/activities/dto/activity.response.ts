import { ApiProperty } from '@nestjs/swagger';
import { ImageVariantsDto } from '../../images/dto/image-variants.response';

/** The activity resource. */
export class ActivityResponseDto {
  @ApiProperty({ format: 'uuid' })
  id!: string;

  @ApiProperty({ example: 'Matterhorn glacier hike' })
  name!: string;

  @ApiProperty({ format: 'uuid' })
  provider_id!: string;

  @ApiProperty({ type: 'string', format: 'uuid', nullable: true })
  image_id!: string | null;

  @ApiProperty({
    type: () => ImageVariantsDto,
    nullable: true,
    description: 'The image in every width (signed URLs); null without an image.',
  })
  image!: ImageVariantsDto | null;

  @ApiProperty({
    type: 'string',
    format: 'uuid',
    isArray: true,
    description: 'The tag ids, in the order of the registry (type, French name).',
  })
  tags!: string[];

  @ApiProperty({
    type: 'integer',
    nullable: true,
    minimum: 0,
    description: 'Travellers per departure day; null means unknown (or unlimited).',
  })
  capacity!: number | null;

  @ApiProperty({ description: 'True: never saturates (capacity is then null).' })
  unlimited!: boolean;

  @ApiProperty({ format: 'date-time' })
  created_at!: string;

  @ApiProperty({ format: 'date-time' })
  updated_at!: string;
}
