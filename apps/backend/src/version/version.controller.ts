import { Controller, Get } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { BACKEND_VERSION } from './backend-version';

/** `GET /version`: outside the contract (backend-api.md part 9). */
@ApiExcludeController()
@Controller('version')
export class VersionController {
  @Get()
  version(): { version: string } {
    return { version: BACKEND_VERSION };
  }
}
