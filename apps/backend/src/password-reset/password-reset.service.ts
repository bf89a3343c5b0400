import { AdminPasswordFile } from '../users/admin-password-file';
import { Injectable, OnModuleInit } from '@nestjs/common';
import { AccessTokensService } from '../access-tokens/access-tokens.service';
import { Clock } from '../common/clock';
import { randomAlphanumeric, secretMatchesHash, sha256Hex } from '../common/secrets';
import { Transactions } from '../database/transactions';
import { DeliveryValues } from '../mail/mail-links';
import { MailOutbox } from '../mail/mail-outbox';
import { MailSettings } from '../mail/mail.settings';
import type { OutboxMessage } from '../mail/outbox-message.entity';
import { durationInWords } from '../mail/templates/mail-texts';
import { OrganizationsService } from '../organizations/organizations.service';
import { PasswordHasher } from '../passwords/password-hasher';
import { MailedLinks } from '../users/mailed-links';
import type { User } from '../users/user.entity';
import { emailIsConfirmed, sameEmail, UsersService } from '../users/users.service';
import { ForgotPasswordDto } from './dto/forgot-password.dto';
import { ResetPasswordDto } from './dto/reset-password.dto';
import { InvalidResetTokenError } from './invalid-reset-token.error';
import { passwordLinkTerms } from './password-link-terms';
import { PasswordLinkSettings } from './password-link.settings';
import { PasswordResetToken, PasswordTokenPurpose } from './password-reset-token.entity';
import { PasswordResetTokensRepository } from './password-reset-tokens.repository';
import { passwordLink } from './password-reset.mail';

/** Reset tokens: 48 characters of [A-Za-z0-9] (~285 bits); only their SHA-256 is stored. */
export const RESET_TOKEN_LENGTH = 48;

/**
 * Whether the token was mailed to the account's current email (docs/decisions.md D-26): a link
 * mailed to an address the account has left sets nothing. A token without an address was written
 * by the previous release during its rollout, and is honoured as before.
 */
const mailedToCurrentEmail = (token: PasswordResetToken, user: User): boolean =>
  token.email === null || sameEmail(token.email, user.email);

@Injectable()
export class PasswordResetService implements OnModuleInit {
  constructor(
    private readonly users: UsersService,
    private readonly organizations: OrganizationsService,
    private readonly accessTokens: AccessTokensService,
    private readonly tokens: PasswordResetTokensRepository,
    private readonly transactions: Transactions,
    private readonly hasher: PasswordHasher,
    private readonly mailOutbox: MailOutbox,
    private readonly deliveryValues: DeliveryValues,
    private readonly mailedLinks: MailedLinks,
    private readonly clock: Clock,
    private readonly linkSettings: PasswordLinkSettings,
    private readonly mailSettings: MailSettings,
    private readonly adminPasswordFile: AdminPasswordFile,
  ) {}

  onModuleInit(): void {
    this.deliveryValues.register('password-reset', (message) => this.issueLink(message, 'reset'));
    this.deliveryValues.register('invitation', (message) => this.issueLink(message, 'invitation'));
    // A confirmed email change or a report ends every reset and invitation link (D-70).
    this.mailedLinks.register((userId) => this.tokens.deleteUnusedOfUser(userId));
  }

  /**
   * `POST /forgot-password`: writes a reset email to the outbox when the address belongs to a
   * user who may choose a password (mayChooseAPassword); silent otherwise. The link itself is
   * issued when the email is delivered.
   */
  async forgotPassword(dto: ForgotPasswordDto): Promise<void> {
    const user = await this.users.findByEmail(dto.email);
    if (!user || !(await this.mayChooseAPassword(user))) return;
    await this.mailOutbox.enqueue({
      template: 'password-reset',
      to: user.email,
      language: user.preferredLanguage,
      payload: { user_id: user.id, first_name: user.firstName },
    });
  }

  /**
   * The link of a reset or invitation email, issued as the email is composed for delivery, so
   * that the outbox never holds a token: a single-use token (only its hash is stored) that
   * replaces the user's unused ones of earlier emails, so only the latest email's link works (both
   * links of an email delivered twice after a crash do: a receiver may keep either copy). The
   * token keeps the address the email goes to: it works only while the account's email is that one.
   */
  private async issueLink(
    message: OutboxMessage,
    purpose: PasswordTokenPurpose,
  ): Promise<Record<string, string>> {
    const user = await this.users.findById(message.payload.user_id);
    if (!user) throw new Error('the recipient of this email no longer exists');
    const token = randomAlphanumeric(RESET_TOKEN_LENGTH);
    const terms = passwordLinkTerms(purpose, this.linkSettings);
    await this.tokens.replaceUnused({
      userId: user.id,
      purpose,
      email: message.recipient,
      tokenHash: sha256Hex(token),
      expiresAt: new Date(this.clock.now().getTime() + terms.ttlMs),
      outboxMessageId: message.id,
    });
    return {
      token,
      link: passwordLink(new URL(terms.page, this.mailSettings.CLIENT_APP_URL).toString(), token, user.email),
      valid_for: durationInWords(message.language, terms.validFor.amount, terms.validFor.unit),
    };
  }

  /**
   * Whether the user may get a reset email and set a password with it: not an account without a
   * password whose organizations are all public signups no super-admin approved yet (their
   * manager never notified). Such a contact first hears from us at the approval, by an
   * invitation (docs/decisions.md D-69). An account whose confirmed address lost its password to
   * a report (D-70) always may: a signup's contact has never confirmed one.
   */
  private async mayChooseAPassword(user: User): Promise<boolean> {
    return (
      user.passwordHash !== null ||
      emailIsConfirmed(user) ||
      !(await this.organizations.inUnapprovedSignupsOnly(user.id))
    );
  }

  /**
   * `POST /reset-password`: a bad, expired or used token, or one mailed to another address than
   * the account's email now → 422 `invalid_reset_token`. A success sets the password and revokes
   * every sign-in token of the user. Marking the token used, the new password, the revocation and
   * dropping the user's other links are one transaction: all happen or none.
   */
  async resetPassword(dto: ResetPasswordDto): Promise<void> {
    const user = await this.users.findByEmail(dto.email);
    if (!user) throw new InvalidResetTokenError();
    const now = this.clock.now();
    const candidates = await this.tokens.findUsableOfUser(user.id, now);
    // Every candidate is compared (constant time each), so timing does not tell which matched.
    const matching = candidates.filter((candidate) => secretMatchesHash(dto.token, candidate.tokenHash));
    if (matching.length === 0 || !mailedToCurrentEmail(matching[0], user)) throw new InvalidResetTokenError();
    // A token issued before the account came to wait for a signup's approval sets nothing either.
    if (!(await this.mayChooseAPassword(user))) throw new InvalidResetTokenError();
    const passwordHash = await this.hasher.hash(dto.password);
    const usedAt = this.clock.now();
    const done = await this.transactions.run(async () => {
      // The account's lock first (UsersService.lockForUpdate): a report or a confirmation that
      // ended this token, changing the email, came first and markUsed finds nothing.
      await this.users.lockForUpdate(user.id);
      if (!(await this.tokens.markUsed(matching[0].id, user.id, usedAt))) return false;
      await this.users.setPasswordHash(user.id, passwordHash);
      // The link was mailed to this address: the email counts as confirmed (docs/decisions.md D-70).
      await this.users.confirmEmail(user.id, user.email);
      await this.accessTokens.revokeAllOfUser(user.id);
      await this.tokens.deleteUnusedOfUser(user.id);
      return true;
    });
    if (!done) throw new InvalidResetTokenError();
    await this.adminPasswordFile.endFor(user.email);
  }
}
