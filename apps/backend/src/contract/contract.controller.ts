import { Controller, Get, Header, Headers } from '@nestjs/common';
import { ApiExcludeController, type OpenAPIObject } from '@nestjs/swagger';
import { Public } from '../access/access.decorators';
import { ContractService } from './contract.service';

/** `GET /contract`: the OpenAPI 3.1 document (not part of itself). */
@ApiExcludeController()
@Controller('contract')
export class ContractController {
  constructor(private readonly contract: ContractService) {}

  @Get()
  @Public()
  @Header('Cache-Control', 'no-store')
  document(@Headers('authorization') authorization: string | undefined): OpenAPIObject {
    return this.contract.documentFor(authorization);
  }
}
