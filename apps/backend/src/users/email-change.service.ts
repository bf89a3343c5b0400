import { Injectable, OnModuleInit } from '@nestjs/common';
import { AppError, ErrorCode } from '@rt/errors';
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
import { MailedLinks } from './mailed-links';
import type { User } from './user.entity';
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
  /**
   * The user as stored before this request: both emails use its first name and language, never
   * the request's, which whoever holds the password chose (docs/decisions.md D-70).
   */
  user: User;
  newEmail: string;
  /** The sign-in token of the request: the one a confirmation keeps. */
  requestedByTokenId: string | null;
}

/** The answer of a report whose old address another account holds (the report's other effects stand). */
const emailNotRestorableError = () =>
  new AppError(
    ErrorCode.EmailNotRestorable,
    'The address this notice was sent to belongs to another account now, so it cannot be restored. ' +
      'The account was signed out everywhere and its other links no longer work.',
  );

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
    private readonly mailedLinks: MailedLinks,
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
   * Whether `email` is reserved to another user than `userId` (null: any user): the old address
   * of one of their changes whose report link still works, which no other account may take
   * (docs/decisions.md D-70).
   */
  reservedForAnother(email: string, userId: string | null): Promise<boolean> {
    return this.changes.reservedForAnother(email, userId, this.clock.now());
  }

  /**
   * Whether `email` may not become `userId`'s address: another account's, or reserved to another
   * user (reservedForAnother).
   */
  async claimedByAnother(email: string, userId: string, now = this.clock.now()): Promise<boolean> {
    return (
      (await this.users.emailUsedByAnother(email, userId)) ||
      (await this.changes.reservedForAnother(email, userId, now))
    );
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
    const payload = {
      email_change_id: change.id,
      first_name: input.user.firstName,
      new_email: input.newEmail,
    };
    const language = input.user.preferredLanguage;
    await this.mailOutbox.enqueue({
      template: 'email-change-confirmation',
      to: input.newEmail,
      language,
      payload,
    });
    await this.mailOutbox.enqueue({
      template: 'email-change-notice',
      to: input.user.email,
      language,
      payload,
    });
  }

  /**
   * `POST /user/email-confirmation`: the new address becomes the user's (and counts as confirmed),
   * then every sign-in token of the user but the one that asked is revoked, and every reset and
   * invitation link of the user ends; one transaction. A bad, used, expired or cancelled token →
   * 422 `invalid_email_change_token`; an address taken or reserved meanwhile → 422 `email_taken`,
   * and the change is cancelled.
   */
  async confirm(token: string): Promise<void> {
    const now = this.clock.now();
    const tokenHash = sha256Hex(token);
    const outcome = await this.transactions
      .run(async () => {
        const userId = await this.changes.findUserIdOfUnusedToken(tokenHash, 'confirm');
        if (!userId || !(await this.users.findByIdForUpdate(userId))) return 'invalid' as const;
        const found = await this.changes.findUnusedTokenForUpdate(tokenHash, 'confirm');
        if (!found) return 'invalid' as const;
        const { change } = found;
        if (change.confirmedAt || change.cancelledAt || change.expiresAt <= now) return 'invalid' as const;
        if (await this.claimedByAnother(change.newEmail, change.userId, now)) {
          await this.changes.markCancelled(change.id, now);
          return 'taken' as const;
        }
        await this.changes.markTokenUsed(found.token.id, now);
        await this.changes.markConfirmed(change.id, now);
        await this.users.changeEmail(change.userId, change.newEmail);
        await this.accessTokens.revokeAllOfUserExcept(change.userId, change.requestedByTokenId);
        await this.mailedLinks.endAllOf(change.userId);
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
   * `POST /user/email-change-report`, the link of the notice to the old address
   * (docs/decisions.md D-70): the old address comes back, whatever happened since (further
   * changes, confirmed or replaced); every pending change is cancelled, every sign-in token
   * revoked, every reset and invitation link ended, and so is the report link of this change and
   * of every later one (mailed to addresses that came after it); once the address is restored,
   * the password is withdrawn. One transaction. A bad, used, ended or expired token → 422; an old
   * address another account holds → 409 `email_not_restorable`, everything else done.
   */
  async report(token: string): Promise<void> {
    const tokenHash = sha256Hex(token);
    const attempt = () => this.transactions.run(() => this.applyReport(tokenHash));
    // Another account took the address between the check and the update (the unique index): the
    // transaction rolled back, and the second attempt finds that account and answers so.
    const outcome = await attempt().catch((error: unknown) => {
      if (error instanceof EmailTakenError) return attempt();
      throw error;
    });
    if (outcome === 'invalid') throw new InvalidEmailChangeTokenError();
    if (outcome === 'not-restorable') throw emailNotRestorableError();
  }

  private async applyReport(tokenHash: string): Promise<'invalid' | 'restored' | 'not-restorable'> {
    const now = this.clock.now();
    const userId = await this.changes.findUserIdOfUnusedToken(tokenHash, 'report');
    const user = userId ? await this.users.findByIdForUpdate(userId) : null;
    if (!user) return 'invalid';
    const found = await this.changes.findUnusedTokenForUpdate(tokenHash, 'report');
    if (!found) return 'invalid';
    const { change } = found;
    if (change.reportEndedAt || change.reportExpiresAt <= now) return 'invalid';
    await this.changes.markTokenUsed(found.token.id, now);
    await this.changes.markReported(change.id, now);
    await this.changes.cancelPendingOfUser(user.id, now);
    await this.changes.endLinksAfterReport(user.id, change.id, now);
    await this.mailedLinks.endAllOf(user.id);
    await this.accessTokens.revokeAllOfUser(user.id);
    if (sameEmail(user.email, change.oldEmail)) {
      // The report link was mailed to this address: its reader proved it (D-70).
      await this.users.confirmEmail(user.id, user.email);
    } else if (await this.claimedByAnother(change.oldEmail, user.id, now)) {
      return 'not-restorable';
    } else {
      await this.users.changeEmail(user.id, change.oldEmail);
    }
    // Whoever asked for the change knew the password: it is withdrawn, and the reader of the
    // restored address chooses a new one with POST /forgot-password (D-70).
    await this.users.clearPassword(user.id);
    return 'restored';
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
