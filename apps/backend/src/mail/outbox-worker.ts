import { inSpan, linksTo, SpanStatusCode } from '@rt/telemetry';
import { BeforeApplicationShutdown, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { DeliveryValues } from './mail-links';
import { MAIL_TEMPLATES, MailTemplate } from './mail-outbox';
import { MailSender } from './mail-sender';
import { MailSettings } from './mail.settings';
import { OutboxMessage } from './outbox-message.entity';
import { OutboxRepository } from './outbox.repository';
import { renderMail } from './templates/render-mail';

/** Longest wait between two attempts of a message. */
const MAX_RETRY_SECONDS = 6 * 3600;

/** Wait after the `attempts`-th failed attempt: base · 2^(attempts − 1), capped. */
export function retryDelaySeconds(baseSeconds: number, attempts: number): number {
  return Math.min(MAX_RETRY_SECONDS, baseSeconds * 2 ** Math.max(0, attempts - 1));
}

/**
 * The `Message-ID` of an outbox row: one per row, the same on every attempt, so that a receiver or
 * a mail provider de-duplicates a second delivery (a crash between the SMTP server's acceptance
 * and the row's mark). On the domain of the sender address (RFC 5322: unique on the right-hand
 * side's host), `localhost` when it has none.
 */
export function messageIdOf(outboxMessageId: string, from: string): string {
  const domain = /@([A-Za-z0-9.-]+)>?\s*$/.exec(from)?.[1] ?? 'localhost';
  return `<${outboxMessageId}@${domain.toLowerCase()}>`;
}

export interface DeliveryRound {
  sent: number;
  retried: number;
  failed: number;
}

/**
 * Delivers the outbox: every poll interval it claims due messages (outbox.repository.ts,
 * `FOR UPDATE SKIP LOCKED` plus a lease, so any number of replicas run it and none sends a message
 * another one holds), composes each in its recipient's language, hands it to the transport and
 * marks it sent; a failure is retried with exponential back-off until MAIL_MAX_ATTEMPTS, then the
 * message is `failed` (logged, and counted by `mail_outbox_messages{state="failed"}`).
 */
@Injectable()
export class OutboxWorker implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('MailOutbox');
  private timer: NodeJS.Timeout | undefined;
  private round: Promise<DeliveryRound> | undefined;
  private stopped = false;

  constructor(
    private readonly outbox: OutboxRepository,
    private readonly deliveryValues: DeliveryValues,
    private readonly sender: MailSender,
    private readonly settings: MailSettings,
  ) {}

  onApplicationBootstrap(): void {
    if (this.settings.MAIL_WORKER_ENABLED) this.schedule();
  }

  /** Before the database closes: the round in progress finishes its message, and no new one starts. */
  async beforeApplicationShutdown(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.round?.catch(() => undefined);
    await this.sender.close();
  }

  /**
   * One delivery round, until no due message is left (tests call it to deliver now). Rounds of one
   * worker never overlap: a call during a round waits for it and then runs its own.
   */
  async deliverDue(): Promise<DeliveryRound> {
    while (this.round) await this.round.catch(() => undefined);
    this.round = this.deliverAll();
    try {
      return await this.round;
    } finally {
      this.round = undefined;
    }
  }

  private schedule(): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.deliverDue()
        .catch((error: unknown) => this.logger.error({ err: error }, 'Mail outbox round failed'))
        .finally(() => this.schedule());
    }, this.settings.MAIL_POLL_INTERVAL_MS);
    this.timer.unref();
  }

  private async deliverAll(): Promise<DeliveryRound> {
    const total: DeliveryRound = { sent: 0, retried: 0, failed: 0 };
    for (;;) {
      if (this.stopped) return total;
      const claimed = await this.outbox.claimDue(
        this.settings.MAIL_BATCH_SIZE,
        this.settings.MAIL_LEASE_SECONDS,
      );
      for (const message of claimed) total[await this.deliver(message)] += 1;
      if (claimed.length < this.settings.MAIL_BATCH_SIZE) return total;
    }
  }

  /** Each delivery attempt is a trace of its own, linked to the request that enqueued the message. */
  private deliver(message: OutboxMessage): Promise<keyof DeliveryRound> {
    const attributes = {
      'mail.message_id': message.id,
      'mail.template': message.template,
      'mail.attempt': message.attempts,
    };
    return inSpan(
      'mail.deliver',
      { root: true, links: linksTo(message.traceContext), attributes },
      async (span) => {
        const outcome = await this.attemptDelivery(message);
        span.setAttribute('mail.outcome', outcome);
        if (outcome !== 'sent')
          span.setStatus({ code: SpanStatusCode.ERROR, message: `delivery ${outcome}` });
        return outcome;
      },
    );
  }

  private async attemptDelivery(message: OutboxMessage): Promise<keyof DeliveryRound> {
    try {
      if (!(MAIL_TEMPLATES as readonly string[]).includes(message.template)) {
        throw new Error(`unknown mail template "${message.template}"`);
      }
      const template = message.template as MailTemplate;
      const values = { ...message.payload, ...(await this.deliveryValues.of(message)) };
      values.link ??= this.settings.CLIENT_APP_URL;
      const rendered = renderMail(template, message.language, values);
      await this.sender.send({
        to: message.recipient,
        messageId: messageIdOf(message.id, this.settings.MAIL_FROM),
        template,
        ...rendered,
        data: values,
      });
    } catch (error) {
      const final = message.attempts >= this.settings.MAIL_MAX_ATTEMPTS;
      const reason = error instanceof Error ? error.message : String(error);
      const retryIn = retryDelaySeconds(this.settings.MAIL_RETRY_BASE_SECONDS, message.attempts);
      await this.outbox.markAttemptFailed(message.id, reason.slice(0, 2000), retryIn, final);
      const context = { message_id: message.id, template: message.template, attempts: message.attempts };
      if (final) {
        this.logger.error({ ...context, reason }, 'Mail not delivered: attempts exhausted, marked failed');
        return 'failed';
      }
      this.logger.warn(
        { ...context, reason, retry_in_seconds: retryIn },
        'Mail delivery failed; retrying later',
      );
      return 'retried';
    }
    await this.outbox.markSent(message.id);
    return 'sent';
  }
}
