import { Controller, Get } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { BACKEND_VERSION } from './backend-version';

/** `GET /version`: outside the contract (docs/decisions.md D-44). */
@ApiExcludeController()
@Controller('version')
export class VersionController {
  @Get()
  version(): { version: string } {
    return { version: BACKEND_VERSION };
  }
}
