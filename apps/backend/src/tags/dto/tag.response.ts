import { ApiProperty } from '@nestjs/swagger';
import { TAG_TYPES, type TagType } from '../tag.entity';
import { TagNamesResponseDto } from './tag-names.response';

/** A tag of the registry. */
export class TagResponseDto {
  @ApiProperty({ format: 'uuid' })
  id!: string;

  @ApiProperty({ enum: TAG_TYPES, enumName: 'TagType' })
  type!: TagType;

  @ApiProperty({ type: () => TagNamesResponseDto })
  names!: TagNamesResponseDto;

  @ApiProperty({ example: 'hiking-boot' })
  icon!: string;

  @ApiProperty({ format: 'date-time' })
  created_at!: string;

  @ApiProperty({ format: 'date-time' })
  updated_at!: string;
}
