import { ApiProperty } from '@nestjs/swagger';

/** The names of a tag: French is canonical and never null. */
export class TagNamesResponseDto {
  @ApiProperty({ example: 'Randonnée' })
  fr!: string;

  @ApiProperty({ type: 'string', nullable: true, example: 'Hiking' })
  en!: string | null;

  @ApiProperty({ type: 'string', nullable: true, example: 'Wandern' })
  de!: string | null;
}
