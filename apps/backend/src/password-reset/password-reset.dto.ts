import { ApiProperty } from '@nestjs/swagger';
import { ValidationErrorResponseDto } from '@rt/contracts';
import { EmailField, NewPasswordField, TextField } from '../common/fields';

export class ForgotPasswordDto {
  @EmailField()
  email!: string;
}

export class ResetPasswordDto {
  @EmailField()
  email!: string;

  @TextField({ max: 255, description: 'The token of the reset (or invitation) link.' })
  token!: string;

  @NewPasswordField()
  password!: string;
}

/** The 422 of `POST /reset-password`: the usual envelope, plus `error` for a bad token. */
export class ResetPasswordErrorResponseDto extends ValidationErrorResponseDto {
  @ApiProperty({
    required: false,
    enum: ['invalid_reset_token'],
    description: 'Present when the token is bad, expired or already used (then `errors.token` says so too).',
  })
  error?: 'invalid_reset_token';
}
