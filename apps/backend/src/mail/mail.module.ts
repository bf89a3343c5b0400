import { Global, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { MetricsModule } from '@rt/platform';
import { BACKEND_CONFIG, type BackendConfig } from '../config';
import { DeliveryValues } from './mail-links';
import { MailMetrics } from './mail-metrics';
import { MailOutbox } from './mail-outbox';
import { MailSender } from './mail-sender';
import { LocalFileMailSender, SmtpMailSender } from './nodemailer-mail-sender';
import { OutboxMessage } from './outbox-message.entity';
import { OutboxWorker } from './outbox-worker';
import { OutboxRepository } from './outbox.repository';

/** SMTP exchanges time out well within the outbox lease, so a slow server never causes a double send. */
const smtpTimeoutMs = (config: BackendConfig) => Math.min(60_000, (config.MAIL_LEASE_SECONDS * 1000) / 4);

export function mailSenderFor(config: BackendConfig): MailSender {
  return config.SMTP_URL
    ? new SmtpMailSender(config.SMTP_URL, config.MAIL_FROM, smtpTimeoutMs(config))
    : new LocalFileMailSender(config.mailDir, config.MAIL_FROM);
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
    { provide: MailSender, inject: [BACKEND_CONFIG], useFactory: mailSenderFor },
  ],
  exports: [MailOutbox, DeliveryValues],
})
export class MailModule {}
