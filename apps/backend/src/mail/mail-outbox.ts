import { activeTraceContext } from '@rt/telemetry';
import { Injectable } from '@nestjs/common';
import type { PreferredLanguage } from '../common/preferred-language';
import { OutboxRepository } from './outbox.repository';

/** The emails of the product; each has a template in src/mail/templates in every language. */
export const MAIL_TEMPLATES = [
  'password-reset',
  'invitation',
  'manager-added',
  'email-change-confirmation',
  'email-change-notice',
  'contact-consent',
] as const;
export type MailTemplate = (typeof MAIL_TEMPLATES)[number];

/** The values each template needs; ids and names only, never a token (links are issued at delivery). */
export interface MailPayloads {
  /** A reset link for the user, issued when the message is delivered. */
  'password-reset': { user_id: string; first_name: string };
  /** A new manager without a password: a set-password link, issued when the message is delivered. */
  invitation: { user_id: string; first_name: string; organization_name: string };
  /** An existing account made the manager of an organization: a sign-in link. */
  'manager-added': { first_name: string; organization_name: string };
  /** To the new address of an email change: a confirmation link, issued when the message is delivered. */
  'email-change-confirmation': { email_change_id: string; first_name: string; new_email: string };
  /** To the old address of an email change: a report link, issued when the message is delivered. */
  'email-change-notice': { email_change_id: string; first_name: string; new_email: string };
  /**
   * To an existing account a public signup named as its contact: a link to accept managing the
   * organization, issued when the message is delivered (docs/decisions.md D-78).
   */
  'contact-consent': { consent_id: string; first_name: string; organization_name: string };
}

export type OutgoingMail = {
  [T in MailTemplate]: {
    template: T;
    to: string;
    /** The recipient's `preferred_language`. */
    language: PreferredLanguage;
    payload: MailPayloads[T];
  };
}[MailTemplate];

/**
 * The one way to send an email: `enqueue` writes it to the outbox in the caller's transaction
 * (`Transactions.run`), so the message exists exactly when the change that causes it commits.
 * The outbox worker (outbox-worker.ts) delivers it afterwards, with retries.
 */
@Injectable()
export class MailOutbox {
  constructor(private readonly outbox: OutboxRepository) {}

  async enqueue(mail: OutgoingMail): Promise<void> {
    await this.outbox.insert({
      template: mail.template,
      recipient: mail.to,
      language: mail.language,
      payload: { ...mail.payload },
      traceContext: activeTraceContext(),
    });
  }
}
