import { Injectable } from '@nestjs/common';

/** Ends the unused links of one user that a feature owns; runs in the caller's transaction. */
export type LinksEnder = (userId: string) => Promise<void>;

/**
 * The links other features mail to a user's address (password-reset's reset and invitation
 * links, organizations' contact-consent links): a confirmed email change and a report end them all (docs/decisions.md D-70). The
 * feature that owns them registers how, as the owners of delivery values do (mail-links.ts), so
 * users never depends on it.
 */
@Injectable()
export class MailedLinks {
  private readonly enders: LinksEnder[] = [];

  register(ender: LinksEnder): void {
    this.enders.push(ender);
  }

  async endAllOf(userId: string): Promise<void> {
    for (const ender of this.enders) await ender(userId);
  }
}
