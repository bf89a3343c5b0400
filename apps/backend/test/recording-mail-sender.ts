import { MailMessage, MailSender } from '../src/mail/mail-sender';

/** Test double of the outbox worker's transport: keeps what was delivered. */
export class RecordingMailSender extends MailSender {
  readonly sent: MailMessage[] = [];
  /** While set, every send fails with it (a transport that is down). */
  failure: Error | undefined;

  async send(message: MailMessage): Promise<void> {
    if (this.failure) throw this.failure;
    this.sent.push(message);
  }

  to(email: string): MailMessage[] {
    return this.sent.filter((message) => message.to.toLowerCase() === email.toLowerCase());
  }

  lastTo(email: string): MailMessage | undefined {
    return this.to(email).at(-1);
  }
}
