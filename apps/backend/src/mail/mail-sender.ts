/**
 * The one door out for emails. Features describe a message; the sender delivers it. The mail
 * outbox (organizations issue) replaces the default implementation behind this same class.
 */
export type MailTemplate = 'password-reset' | 'invitation';

export interface MailMessage {
  to: string;
  template: MailTemplate;
  subject: string;
  /** Plain-text body. May hold secrets (reset links): never logged. */
  text: string;
  /** Template values, e.g. `{ token, reset_url }`. May hold secrets: never logged. */
  data: Record<string, string>;
}

/** Injection token and interface (an abstract class, so it works as both). */
export abstract class MailSender {
  abstract send(message: MailMessage): Promise<void>;
}
