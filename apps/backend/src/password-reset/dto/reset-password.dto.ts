import { EmailField, NewPasswordField, TextField } from '@rt/contracts';

/** `POST /reset-password`. */
export class ResetPasswordDto {
  @EmailField()
  email!: string;

  @TextField({ max: 255, description: 'The token of the reset (or invitation) link.' })
  token!: string;

  @NewPasswordField()
  password!: string;
}
