import { Global, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { MetricsModule } from '@rt/platform';
import { DeliveryValues } from './mail-links';
import { MailMetrics } from './mail-metrics';
import { MailOutbox } from './mail-outbox';
import { MailSender } from './mail-sender';
import { MailSettings } from './mail.settings';
import { LocalFileMailSender, SmtpMailSender } from './nodemailer-mail-sender';
import { OutboxMessage } from './outbox-message.entity';
import { OutboxWorker } from './outbox-worker';
import { OutboxRepository } from './outbox.repository';

/** SMTP exchanges time out well within the outbox lease, so a slow server never causes a double send. */
const smtpTimeoutMs = (settings: MailSettings) => Math.min(60_000, (settings.MAIL_LEASE_SECONDS * 1000) / 4);

export function mailSenderFor(settings: MailSettings): MailSender {
  return settings.SMTP_URL
    ? new SmtpMailSender(settings.SMTP_URL, settings.MAIL_FROM, smtpTimeoutMs(settings))
    : new LocalFileMailSender(settings.mailDir, settings.MAIL_FROM);
}

/** Emails: the outbox every feature writes to (MailOutbox), its worker, transports and metric. */
@Global()
@Module({
  imports: [TypeOrmModule.forFeature([OutboxMessage]), MetricsModule],
  providers: [
    OutboxRepository,
    MailOutbox,
    DeliveryValues,
    OutboxWorker,
    MailMetrics,
    { provide: MailSender, inject: [MailSettings], useFactory: mailSenderFor },
  ],
  exports: [MailOutbox, DeliveryValues],
})
export class MailModule {}
