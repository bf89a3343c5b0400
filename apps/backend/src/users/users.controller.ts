import { Body, Controller, Get, HttpCode, Post, Put } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { AuthUser } from '../access/access';
import { CurrentTokenId, CurrentUser, Public, SignedIn } from '../access/access.decorators';
import {
  ApiJsonBodyErrors,
  ApiNoContentResponse,
  ApiValidationFailedResponse,
} from '../common/api-responses';
import { RateLimit } from '../throttling/rate-limit.decorator';
import { EmailChangeTokenDto } from './dto/email-change-token.dto';
import { EmailChangeTokenErrorResponseDto } from './dto/email-change-token-error.response';
import { UpdateUserDto } from './dto/update-user.dto';
import { UserResponseDto } from './dto/user.response';
import { EmailChangeService } from './email-change.service';
import { UsersService } from './users.service';

@ApiTags('user')
@Controller('user')
export class UsersController {
  constructor(
    private readonly users: UsersService,
    private readonly emailChanges: EmailChangeService,
  ) {}

  @Get()
  @SignedIn()
  @ApiOperation({
    operationId: 'getCurrentUser',
    summary: 'The signed-in user',
    description: 'No `X-Viewing-As` needed.',
  })
  @ApiOkResponse({ type: UserResponseDto, description: 'The signed-in user.' })
  current(@CurrentUser() user: AuthUser): Promise<UserResponseDto> {
    return this.users.profile(user.id);
  }

  @Put()
  @SignedIn()
  @RateLimit('email-change')
  @ApiOperation({
    operationId: 'replaceCurrentUser',
    summary: 'Replace the signed-in user',
    description:
      'Full replacement: every field is sent. A new email (compared in its canonical form, D-77) ' +
      'needs `current_password` (422 on `current_password` when missing or wrong), stays unique ' +
      'in that form (422 on `email` with `reason: email_taken`; a refused shape → 422 with its ' +
      '`reason`), and takes effect only once ' +
      'confirmed: the answer keeps the old `email` and shows `pending_email`, a confirmation link ' +
      'goes to the new address and a notice with a report link to the old one; a new change ' +
      'replaces a pending one. Calls that change the email are throttled. No `X-Viewing-As` needed.',
  })
  @ApiOkResponse({ type: UserResponseDto, description: 'The user as stored (with `pending_email`).' })
  @ApiValidationFailedResponse()
  @ApiJsonBodyErrors()
  replace(
    @CurrentUser() user: AuthUser,
    @CurrentTokenId() tokenId: string,
    @Body() dto: UpdateUserDto,
  ): Promise<UserResponseDto> {
    return this.users.replaceProfile(user.id, tokenId, dto);
  }

  @Post('email-confirmation')
  @HttpCode(204)
  @Public()
  @ApiOperation({
    operationId: 'confirmEmailChange',
    summary: 'Confirm an email change with the token mailed to the new address',
    description:
      'The token of the link `CLIENT_APP_URL/confirm-email?token=…` (valid 24 hours by default, ' +
      'single use). The new address becomes the email, and every sign-in token of the user but the ' +
      'one that asked for the change is revoked. A bad, expired, used or replaced token → 422 with ' +
      '`error: invalid_email_change_token`; an address taken meanwhile → 422 with `reason: email_taken` ' +
      '(the change is cancelled).',
  })
  @ApiNoContentResponse('The email is changed; the other tokens of the user are revoked.')
  @ApiResponse({
    status: 422,
    type: EmailChangeTokenErrorResponseDto,
    description: 'Validation failed, `invalid_email_change_token`, or `reason: email_taken`.',
  })
  @ApiJsonBodyErrors()
  confirmEmail(@Body() dto: EmailChangeTokenDto): Promise<void> {
    return this.emailChanges.confirm(dto.token);
  }

  @Post('email-change-report')
  @HttpCode(204)
  @Public()
  @ApiOperation({
    operationId: 'reportEmailChange',
    summary: 'Report an email change with the token of the notice mailed to the old address',
    description:
      'The token of the link `CLIENT_APP_URL/report-email-change?token=…` (valid 7 days by default, ' +
      'single use). Cancels the pending change, undoes it if it was confirmed (the old address comes ' +
      'back when still free), and revokes every sign-in token of the user. A bad, expired or used ' +
      'token → 422 with `error: invalid_email_change_token`.',
  })
  @ApiNoContentResponse('The change is cancelled or undone; every token of the user is revoked.')
  @ApiResponse({
    status: 422,
    type: EmailChangeTokenErrorResponseDto,
    description: 'Validation failed, or `invalid_email_change_token`.',
  })
  @ApiJsonBodyErrors()
  reportEmailChange(@Body() dto: EmailChangeTokenDto): Promise<void> {
    return this.emailChanges.report(dto.token);
  }
}
