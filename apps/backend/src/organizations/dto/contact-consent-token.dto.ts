import { TextField } from '@rt/contracts';

/** `POST /organization-contact-consent`. */
export class ContactConsentTokenDto {
  @TextField({ max: 255, description: "The token of the link mailed to the signup's contact." })
  token!: string;
}
