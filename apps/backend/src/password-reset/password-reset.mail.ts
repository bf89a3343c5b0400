import type { MailMessage } from '../mail/mail-sender';
import type { PasswordTokenPurpose } from './password-reset-token.entity';

/** The link of a reset or invitation email: the office app's page with the token and the email. */
export function passwordLink(baseUrl: string, token: string, email: string): string {
  const url = new URL(baseUrl);
  url.searchParams.set('token', token);
  url.searchParams.set('email', email);
  return url.toString();
}

export function passwordMail(
  purpose: PasswordTokenPurpose,
  to: string,
  token: string,
  link: string,
  validFor: string,
): MailMessage {
  const reset = purpose === 'reset';
  return {
    to,
    template: reset ? 'password-reset' : 'invitation',
    subject: reset ? 'Reset your password' : 'You are invited: choose your password',
    text: reset
      ? `Someone asked to reset the password of this account. To choose a new password, open ${link} (valid for ${validFor}). If it was not you, ignore this email.`
      : `You have been invited. To choose your password, open ${link} (valid for ${validFor}).`,
    data: { token, email: to, link },
  };
}
