import { Body, Controller, HttpCode, Ip, Post } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentTokenId, Public, SignedIn } from '../access/access.decorators';
import {
  ApiJsonBodyErrors,
  ApiNoContentResponse,
  ApiValidationFailedResponse,
} from '../common/api-responses';
import { RateLimit } from '../throttling/rate-limit.decorator';
import { LoginDto } from './dto/login.dto';
import { LoginResponseDto } from './dto/login.response';
import { SessionsService } from './sessions.service';

@ApiTags('session')
@Controller()
export class SessionsController {
  constructor(private readonly sessions: SessionsService) {}

  @Post('login')
  @HttpCode(200)
  @Public()
  @RateLimit('login')
  @ApiOperation({
    operationId: 'login',
    summary: 'Sign in',
    description:
      'Issues a personal access token bound to `device_name`. Wrong credentials → 422 on `email`, ' +
      'the same whether or not the address exists. Tokens expire after an idle period (30 days by default).',
  })
  @ApiOkResponse({ type: LoginResponseDto, description: 'The token (shown once) and the user.' })
  @ApiValidationFailedResponse()
  @ApiJsonBodyErrors()
  login(@Body() dto: LoginDto, @Ip() ip: string): Promise<LoginResponseDto> {
    return this.sessions.login(dto, ip);
  }

  @Post('logout')
  @HttpCode(204)
  @SignedIn()
  @ApiOperation({ operationId: 'logout', summary: 'Sign out', description: 'Revokes the token in use.' })
  @ApiNoContentResponse('The token is revoked.')
  logout(@CurrentTokenId() tokenId: string): Promise<void> {
    return this.sessions.logout(tokenId);
  }
}
