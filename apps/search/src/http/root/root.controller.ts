import { Controller, Get } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiProperty, ApiPropertyOptional, ApiTags } from '@nestjs/swagger';
import { BaseEnv, toZurichIso } from '@rt/platform';
import { ServiceSettings } from './service.settings';

export class RootResponseDto {
  @ApiProperty({ name: 'app-name', example: 'travel-search' })
  'app-name'!: string;

  @ApiProperty({
    description: 'Now, ISO 8601 with the Europe/Zurich offset.',
    example: '2026-11-23T12:34:56.789+01:00',
  })
  datetime!: string;

  @ApiPropertyOptional({ name: 'version-tag', type: String, nullable: true })
  'version-tag'!: string | null;

  @ApiPropertyOptional({ name: 'build-date', type: String, nullable: true })
  'build-date'!: string | null;
}

/** `GET /`: who is answering and when; never touches the database. */
@ApiTags('service')
@Controller()
export class RootController {
  constructor(
    private readonly service: ServiceSettings,
    private readonly base: BaseEnv,
  ) {}

  @Get()
  @ApiOperation({ summary: 'Name, time and build of the service' })
  @ApiOkResponse({ type: RootResponseDto })
  root(): RootResponseDto {
    return {
      'app-name': this.service.APP_NAME,
      datetime: toZurichIso(new Date()),
      'version-tag': this.base.VERSION_TAG ?? null,
      'build-date': this.base.BUILD_DATE ?? null,
    };
  }
}
