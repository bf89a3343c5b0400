import { ApiProperty } from '@nestjs/swagger';
import { ValidationErrorResponseDto } from '@rt/contracts';

/** The 422 of `POST /reset-password`: the usual envelope, plus `error` for a bad token. */
export class ResetPasswordErrorResponseDto extends ValidationErrorResponseDto {
  @ApiProperty({
    required: false,
    enum: ['invalid_reset_token'],
    description: 'Present when the token is bad, expired or already used (then `errors.token` says so too).',
  })
  error?: 'invalid_reset_token';
}
