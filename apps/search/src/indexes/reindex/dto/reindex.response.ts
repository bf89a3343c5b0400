import { ApiProperty } from '@nestjs/swagger';

/** docs/search-api.md, "GET /reindex". */
export class ReindexResponseDto {
  @ApiProperty({ example: 'Reindex started in the background.' })
  message!: string;

  @ApiProperty({
    description: 'Now, ISO 8601 with the Europe/Zurich offset.',
    example: '2026-11-23T13:06:12.345+01:00',
  })
  time!: string;
}
