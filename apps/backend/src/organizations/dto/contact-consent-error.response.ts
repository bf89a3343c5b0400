import { ApiProperty } from '@nestjs/swagger';
import { ValidationErrorResponseDto } from '@rt/contracts';

/** The 422 of `POST /organization-contact-consent`: the usual envelope, plus `error` for a bad token. */
export class ContactConsentErrorResponseDto extends ValidationErrorResponseDto {
  @ApiProperty({
    required: false,
    enum: ['invalid_contact_consent_token'],
    description:
      'Present when the token is bad, expired or already used, or its consent was already given ' +
      '(then `errors.token` says so too).',
  })
  error?: 'invalid_contact_consent_token';
}
