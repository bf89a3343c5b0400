import { ApiProperty } from '@nestjs/swagger';
import { ImageVariantsDto } from './image-variants.response';

/** `POST /images`. */
export class ImageResponseDto {
  @ApiProperty({ format: 'uuid' })
  id!: string;

  @ApiProperty({
    example: '/img/<signature>/plain/<uuid>.jpg',
    description: 'Signed URL of the original (oriented, without metadata), relative to the host.',
  })
  url!: string;

  @ApiProperty({ type: () => ImageVariantsDto })
  variants!: ImageVariantsDto;
}
