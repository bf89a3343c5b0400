import { Injectable } from '@nestjs/common';
import { MetricsService } from '@rt/platform';
import { Gauge } from 'prom-client';
import { OUTBOX_STATES } from './outbox-message.entity';
import { OutboxRepository } from './outbox.repository';

/**
 * `mail_outbox_messages{state}`: the outbox's messages per state, and
 * `mail_outbox_oldest_pending_age_seconds`: how long the oldest pending one has waited; both read
 * from the table at each scrape (so every replica reports the same).
 */
@Injectable()
export class MailMetrics {
  constructor(metrics: MetricsService, outbox: OutboxRepository) {
    new Gauge({
      name: 'mail_outbox_messages',
      help: 'Messages of the mail outbox by state: pending (to send or retry), sent, failed (attempts exhausted).',
      labelNames: ['state'],
      registers: [metrics.registry],
      async collect() {
        const counts = await outbox.countByState();
        for (const state of OUTBOX_STATES) this.set({ state }, counts[state]);
      },
    });
    new Gauge({
      name: 'mail_outbox_oldest_pending_age_seconds',
      help: 'Seconds since the oldest pending message of the mail outbox was enqueued (0: none pending).',
      registers: [metrics.registry],
      async collect() {
        this.set(await outbox.oldestPendingAgeSeconds());
      },
    });
  }
}
