import { Injectable, Logger } from '@nestjs/common';
import { MailMessage, MailSender } from './mail-sender';

/**
 * Default sender until the outbox exists: records that a message would be sent (template and
 * recipient), without its body or data, which may hold a reset link.
 */
@Injectable()
export class LoggingMailSender extends MailSender {
  private readonly logger = new Logger('Mail');

  async send(message: MailMessage): Promise<void> {
    this.logger.log({ template: message.template, to: message.to }, 'Mail not delivered (no transport yet)');
  }
}
