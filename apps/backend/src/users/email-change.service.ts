import { Injectable, OnModuleInit } from '@nestjs/common';
import { AppError } from '@rt/errors';
import { AccessTokensService } from '../access-tokens/access-tokens.service';
import { Clock } from '../common/clock';
import { randomAlphanumeric, sha256Hex } from '../common/secrets';
import { Transactions } from '../database/transactions';
import { DeliveryValues } from '../mail/mail-links';
import { MailOutbox } from '../mail/mail-outbox';
import { MailSettings } from '../mail/mail.settings';
import type { OutboxMessage } from '../mail/outbox-message.entity';
import { durationInWords } from '../mail/templates/mail-texts';
import { sameEmail } from './email-address';
import type { EmailChangeTokenPurpose } from './email-change-token.entity';
import { EmailChangeSettings } from './email-change.settings';
import { EmailChangesRepository } from './email-changes.repository';
import { InvalidEmailChangeTokenError } from './invalid-email-change-token.error';
import type { PreferredLanguage, User } from './user.entity';
import { EmailTakenError, UsersRepository } from './users.repository';

/** Email-change tokens: 48 characters of [A-Za-z0-9] (~285 bits); only their SHA-256 is stored. */
export const EMAIL_CHANGE_TOKEN_LENGTH = 48;

const HOUR_MS = 3_600_000;

/** The client app's pages the two links open (under CLIENT_APP_URL), each with `?token=…`. */
const PAGES: Record<EmailChangeTokenPurpose, string> = {
  confirm: '/confirm-email',
  report: '/report-email-change',
};

export const emailTakenError = (field: string) =>
  AppError.validation({ [field]: ['The email has already been taken.'] }, 'email_taken');

/** What `PUT /user` asks for when the email changes. */
export interface EmailChangeRequest {
  user: User;
  newEmail: string;
  /** The language of both emails: the user's, as this same request sets it. */
  language: PreferredLanguage;
  firstName: string;
  /** The sign-in token of the request: the one a confirmation keeps. */
  requestedByTokenId: string | null;
}

/**
 * Email changes (docs/decisions.md D-70): `PUT /user` asks, the new address confirms
 * (`POST /user/email-confirmation`), the old one is told and may report it
 * (`POST /user/email-change-report`). Links are issued at delivery, so the outbox holds no token.
 */
@Injectable()
export class EmailChangeService implements OnModuleInit {
  constructor(
    private readonly changes: EmailChangesRepository,
    private readonly users: UsersRepository,
    private readonly accessTokens: AccessTokensService,
    private readonly transactions: Transactions,
    private readonly mailOutbox: MailOutbox,
    private readonly deliveryValues: DeliveryValues,
    private readonly clock: Clock,
    private readonly settings: EmailChangeSettings,
    private readonly mailSettings: MailSettings,
  ) {}

  onModuleInit(): void {
    this.deliveryValues.register('email-change-confirmation', (message) =>
      this.issueLink(message, 'confirm'),
    );
    this.deliveryValues.register('email-change-notice', (message) => this.issueLink(message, 'report'));
  }

  /** The address waiting for its confirmation, or null. */
  async pendingEmailOf(userId: string): Promise<string | null> {
    return (await this.changes.findPendingOfUser(userId, this.clock.now()))?.newEmail ?? null;
  }

  /**
   * Records a change (replacing a pending one) and writes both emails to the outbox: a
   * confirmation link to the new address, a notice with a report link to the old one. Runs in
   * the caller's transaction.
   */
  async request(input: EmailChangeRequest): Promise<void> {
    const now = this.clock.now();
    await this.changes.cancelPendingOfUser(input.user.id, now);
    const change = await this.changes.insert({
      userId: input.user.id,
      oldEmail: input.user.email,
      newEmail: input.newEmail,
      requestedByTokenId: input.requestedByTokenId,
      expiresAt: new Date(now.getTime() + this.settings.EMAIL_CHANGE_TTL_HOURS * HOUR_MS),
      reportExpiresAt: new Date(now.getTime() + this.settings.EMAIL_CHANGE_REPORT_TTL_DAYS * 24 * HOUR_MS),
    });
    const payload = { email_change_id: change.id, first_name: input.firstName, new_email: input.newEmail };
    await this.mailOutbox.enqueue({
      template: 'email-change-confirmation',
      to: input.newEmail,
      language: input.language,
      payload,
    });
    await this.mailOutbox.enqueue({
      template: 'email-change-notice',
      to: input.user.email,
      language: input.language,
      payload,
    });
  }

  /**
   * `POST /user/email-confirmation`: the new address becomes the user's (and counts as confirmed),
   * then every sign-in token of the user but the one that asked is revoked; one transaction. A
   * bad, used, expired or cancelled token → 422 `invalid_email_change_token`; an address taken
   * meanwhile → 422 `email_taken`, and the change is cancelled.
   */
  async confirm(token: string): Promise<void> {
    const now = this.clock.now();
    const outcome = await this.transactions
      .run(async () => {
        const found = await this.changes.findUnusedTokenForUpdate(sha256Hex(token), 'confirm');
        if (!found) return 'invalid' as const;
        const { change } = found;
        if (change.confirmedAt || change.cancelledAt || change.expiresAt <= now) return 'invalid' as const;
        if (await this.users.emailUsedByAnother(change.newEmail, change.userId)) {
          await this.changes.markCancelled(change.id, now);
          return 'taken' as const;
        }
        await this.changes.markTokenUsed(found.token.id, now);
        await this.changes.markConfirmed(change.id, now);
        await this.users.changeEmail(change.userId, change.newEmail);
        await this.accessTokens.revokeAllOfUserExcept(change.userId, change.requestedByTokenId);
        return 'confirmed' as const;
      })
      .catch((error: unknown) => {
        // Another account took the address between the check and the update (the unique index).
        if (error instanceof EmailTakenError) return 'taken' as const;
        throw error;
      });
    if (outcome === 'invalid') throw new InvalidEmailChangeTokenError();
    if (outcome === 'taken') throw emailTakenError('token');
  }

  /**
   * `POST /user/email-change-report`, the link of the notice to the old address: cancels the
   * user's pending change, undoes this change if it was confirmed (the old address comes back,
   * when the user still holds the new one and nobody took the old one), and revokes every sign-in
   * token of the user; one transaction. A bad, used or expired token → 422.
   */
  async report(token: string): Promise<void> {
    const now = this.clock.now();
    const done = await this.transactions.run(async () => {
      const found = await this.changes.findUnusedTokenForUpdate(sha256Hex(token), 'report');
      if (!found || found.change.reportExpiresAt <= now) return false;
      const { change } = found;
      await this.changes.markTokenUsed(found.token.id, now);
      await this.changes.markReported(change.id, now);
      await this.changes.cancelPendingOfUser(change.userId, now);
      if (change.confirmedAt) {
        const user = await this.users.findById(change.userId);
        const stillNew = user !== null && sameEmail(user.email, change.newEmail);
        if (stillNew && !(await this.users.emailUsedByAnother(change.oldEmail, change.userId))) {
          await this.users.changeEmail(change.userId, change.oldEmail);
        }
      }
      await this.accessTokens.revokeAllOfUser(change.userId);
      return true;
    });
    if (!done) throw new InvalidEmailChangeTokenError();
  }

  /** The link of a confirmation or a notice, issued as the email is composed for delivery. */
  private async issueLink(
    message: OutboxMessage,
    purpose: EmailChangeTokenPurpose,
  ): Promise<Record<string, string>> {
    const change = await this.changes.findById(message.payload.email_change_id);
    if (!change) throw new Error('the email change of this message no longer exists');
    const token = randomAlphanumeric(EMAIL_CHANGE_TOKEN_LENGTH);
    await this.changes.addToken(change.id, purpose, sha256Hex(token), message.id);
    const link = new URL(PAGES[purpose], this.mailSettings.CLIENT_APP_URL);
    link.searchParams.set('token', token);
    return {
      token,
      link: link.toString(),
      valid_for:
        purpose === 'confirm'
          ? durationInWords(message.language, this.settings.EMAIL_CHANGE_TTL_HOURS, 'hours')
          : durationInWords(message.language, this.settings.EMAIL_CHANGE_REPORT_TTL_DAYS, 'days'),
    };
  }
}
