import { ApiProperty } from '@nestjs/swagger';
import { ValidationErrorResponseDto } from '@rt/contracts';

/** The 422 of the email-change links: the usual envelope, plus `error` for a bad token. */
export class EmailChangeTokenErrorResponseDto extends ValidationErrorResponseDto {
  @ApiProperty({
    required: false,
    enum: ['invalid_email_change_token'],
    description:
      'Present when the token is bad, expired, already used or replaced (then `errors.token` says so too).',
  })
  error?: 'invalid_email_change_token';
}
