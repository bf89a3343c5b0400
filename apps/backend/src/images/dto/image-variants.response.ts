import { ApiProperty } from '@nestjs/swagger';

const widthNote = (width: number) =>
  `Signed URL of the image fit inside ${width} px wide (the original's URL when it is not wider).`;

/** Signed image URLs by width (200, 600, 1200, 1920 px). Clients never build image URLs. */
export class ImageVariantsDto {
  @ApiProperty({ example: '/img/<signature>/rs:fit:200:0/plain/<uuid>.jpg', description: widthNote(200) })
  thumb!: string;

  @ApiProperty({ example: '/img/<signature>/rs:fit:600:0/plain/<uuid>.jpg', description: widthNote(600) })
  medium!: string;

  @ApiProperty({ example: '/img/<signature>/rs:fit:1200:0/plain/<uuid>.jpg', description: widthNote(1200) })
  large!: string;

  @ApiProperty({ example: '/img/<signature>/rs:fit:1920:0/plain/<uuid>.jpg', description: widthNote(1920) })
  full!: string;
}
