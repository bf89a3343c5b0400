import { Body, Controller, Get, HttpCode, Post, Put } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { ErrorResponseDto } from '@rt/contracts';
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
      'in that form and may not be the old address of another account while its report link works ' +
      '(422 on `email` with `reason: email_taken`; a refused shape → 422 with its `reason`), and ' +
      'takes effect only once confirmed: the answer keeps the old `email` and shows ' +
      '`pending_email`, a confirmation link goes to the new address and a notice with a report ' +
      'link to the old one, both with the name and language stored before this request; a new ' +
      'change replaces a pending one. Calls that change the email are throttled. No ' +
      '`X-Viewing-As` needed.',
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
      'single use). The new address becomes the email, every sign-in token of the user but the ' +
      'one that asked for the change is revoked, and every reset and invitation link of the user ' +
      'stops working. A bad, expired, used or replaced token → 422 with ' +
      '`error: invalid_email_change_token`; an address taken meanwhile, or reserved to another ' +
      'account by its own report link → 422 with `reason: email_taken` (the change is cancelled).',
  })
  @ApiNoContentResponse(
    'The email is changed; the other tokens of the user are revoked, its reset and invitation links ended.',
  )
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
      'single use). The address the notice was sent to becomes the email again, whatever changed ' +
      'since; every pending change is cancelled, every sign-in token of the user revoked, every ' +
      'reset and invitation link ended, and so is the report link of this change and of every ' +
      'later one. A bad, expired, used or ended token → 422 with `error: invalid_email_change_token`; ' +
      'an old address another account holds → 409 `email_not_restorable` (the rest is done).',
  })
  @ApiNoContentResponse(
    'The old address is the email again; every token of the user is revoked, its other links ended.',
  )
  @ApiResponse({
    status: 409,
    type: ErrorResponseDto,
    description:
      '`email_not_restorable`: another account holds the address the notice was sent to; the email ' +
      'stays as it is, and the tokens, the pending change and the links are ended all the same.',
  })
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
