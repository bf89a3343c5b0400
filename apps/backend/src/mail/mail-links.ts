import { Injectable } from '@nestjs/common';
import type { OutboxMessage } from './outbox-message.entity';
import type { MailTemplate } from './mail-outbox';

/**
 * Values a template can only get at delivery time, such as a set-password link (its token is
 * issued then, so no token rests in the outbox). The feature that owns the secret registers a
 * provider for its templates (password-reset does, for `password-reset` and `invitation`).
 */
export type DeliveryValuesProvider = (message: OutboxMessage) => Promise<Record<string, string>>;

@Injectable()
export class DeliveryValues {
  private readonly providers = new Map<MailTemplate, DeliveryValuesProvider>();

  register(template: MailTemplate, provider: DeliveryValuesProvider): void {
    if (this.providers.has(template)) throw new Error(`delivery values of "${template}" registered twice`);
    this.providers.set(template, provider);
  }

  async of(message: OutboxMessage): Promise<Record<string, string>> {
    const provider = this.providers.get(message.template as MailTemplate);
    return provider ? provider(message) : {};
  }
}
