import { TextField } from '@rt/contracts';

/** `POST /user/email-confirmation`, `POST /user/email-change-report`. */
export class EmailChangeTokenDto {
  @TextField({ max: 255, description: 'The token of the link mailed to the new (or old) address.' })
  token!: string;
}
