import { MailMessage, MailSender } from '../src/mail/mail-sender';

/** Test double of the mail door: keeps what would have been sent. */
export class RecordingMailSender extends MailSender {
  readonly sent: MailMessage[] = [];

  async send(message: MailMessage): Promise<void> {
    this.sent.push(message);
  }

  to(email: string): MailMessage[] {
    return this.sent.filter((message) => message.to.toLowerCase() === email.toLowerCase());
  }

  lastTo(email: string): MailMessage | undefined {
    return this.to(email).at(-1);
  }
}
