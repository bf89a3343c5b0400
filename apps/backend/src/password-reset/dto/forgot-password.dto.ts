import { EmailField } from '@rt/contracts';

/** `POST /forgot-password`. */
export class ForgotPasswordDto {
  @EmailField()
  email!: string;
}
