import type { MailTemplate } from './mail-outbox';

/** An email ready to go out: what the outbox worker hands to the transport. */
export interface MailMessage {
  to: string;
  /** `<outbox row id@sender's domain>`: the same on every attempt of one outbox row. */
  messageId: string;
  template: MailTemplate;
  subject: string;
  /** Plain-text and HTML bodies. May hold secrets (set-password links): never logged. */
  text: string;
  html: string;
  /** The values the template was filled with (`link`, and `token` for set-password links). Never logged. */
  data: Record<string, string>;
}

/**
 * The transport of the outbox worker: SMTP in deployment, the local `.eml` writer by default
 * (mail.module.ts chooses by configuration). `send` resolves once the message is accepted for
 * delivery, and rejects otherwise: the worker then retries it later.
 */
export abstract class MailSender {
  abstract send(message: MailMessage): Promise<void>;
  /** Closes connections (at shutdown). */
  async close(): Promise<void> {}
}
