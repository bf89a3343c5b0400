import { ApiProperty } from '@nestjs/swagger';

/** Signed image URLs by width (200, 600, 1200, 1920 px). */
export class ImageVariantsDto {
  @ApiProperty({ example: '/img/<signature>/rs:fit:200:0/plain/<uuid>.jpg' })
  thumb!: string;

  @ApiProperty()
  medium!: string;

  @ApiProperty()
  large!: string;

  @ApiProperty()
  full!: string;
}
