import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { Public } from '../access/access.decorators';
import {
  ApiJsonBodyErrors,
  ApiNoContentResponse,
  ApiValidationFailedResponse,
} from '../common/api-responses';
import { RateLimit } from '../throttling/rate-limit.decorator';
import { ForgotPasswordDto } from './dto/forgot-password.dto';
import { ResetPasswordDto } from './dto/reset-password.dto';
import { ResetPasswordErrorResponseDto } from './dto/reset-password-error.response';
import { PasswordResetService } from './password-reset.service';

@ApiTags('session')
@Controller()
export class PasswordResetController {
  constructor(private readonly passwordReset: PasswordResetService) {}

  @Post('forgot-password')
  @HttpCode(204)
  @Public()
  @RateLimit('forgot-password')
  @ApiOperation({
    operationId: 'forgotPassword',
    summary: 'Send a password reset link',
    description:
      'Answers 204 whether or not the address belongs to a user. The link is valid for 60 minutes by default.',
  })
  @ApiNoContentResponse('Accepted; a link is sent when the address belongs to a user.')
  @ApiValidationFailedResponse()
  @ApiJsonBodyErrors()
  forgot(@Body() dto: ForgotPasswordDto): Promise<void> {
    return this.passwordReset.forgotPassword(dto);
  }

  @Post('reset-password')
  @HttpCode(204)
  @Public()
  @RateLimit('reset-password')
  @ApiOperation({
    operationId: 'resetPassword',
    summary: 'Set a new password with a reset or invitation token',
    description:
      'Single-use tokens. A bad, expired or used token → 422 with `error: invalid_reset_token`. ' +
      'A success signs the user out of every device. Also how an invited manager sets a first password.',
  })
  @ApiNoContentResponse('The password is set; every token of the user is revoked.')
  @ApiResponse({
    status: 422,
    type: ResetPasswordErrorResponseDto,
    description: 'Validation failed, or `invalid_reset_token`.',
  })
  @ApiJsonBodyErrors()
  reset(@Body() dto: ResetPasswordDto): Promise<void> {
    return this.passwordReset.resetPassword(dto);
  }
}
