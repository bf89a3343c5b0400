import { Inject, Injectable } from '@nestjs/common';
import { AccessTokensService } from '../access-tokens/access-tokens.service';
import { Clock } from '../common/clock';
import { randomAlphanumeric, secretMatchesHash, sha256Hex } from '../common/secrets';
import { BACKEND_CONFIG, type BackendConfig } from '../config';
import { Transactions } from '../database/transactions';
import { MailSender } from '../mail/mail-sender';
import { PasswordHasher } from '../passwords/password-hasher';
import { UsersService } from '../users/users.service';
import { ForgotPasswordDto } from './dto/forgot-password.dto';
import { ResetPasswordDto } from './dto/reset-password.dto';
import { InvalidResetTokenError } from './invalid-reset-token.error';
import { PasswordTokenPurpose } from './password-reset-token.entity';
import { PasswordResetTokensRepository } from './password-reset-tokens.repository';
import { passwordLink, passwordMail } from './password-reset.mail';

/** Reset tokens: 48 characters of [A-Za-z0-9] (~285 bits); only their SHA-256 is stored. */
export const RESET_TOKEN_LENGTH = 48;

@Injectable()
export class PasswordResetService {
  constructor(
    private readonly users: UsersService,
    private readonly accessTokens: AccessTokensService,
    private readonly tokens: PasswordResetTokensRepository,
    private readonly transactions: Transactions,
    private readonly hasher: PasswordHasher,
    private readonly mail: MailSender,
    private readonly clock: Clock,
    @Inject(BACKEND_CONFIG) private readonly config: BackendConfig,
  ) {}

  /** `POST /forgot-password`: mails a reset link when the address belongs to a user; silent otherwise. */
  async forgotPassword(dto: ForgotPasswordDto): Promise<void> {
    const user = await this.users.findByEmail(dto.email);
    if (!user) return;
    await this.sendPasswordLink(user.id, user.email, 'reset');
  }

  /**
   * Issues a single-use token and mails its link: a reset, or the invitation of a new manager
   * to choose a first password (organizations feature). Earlier unused links stop working.
   */
  async sendPasswordLink(userId: string, email: string, purpose: PasswordTokenPurpose): Promise<void> {
    const token = randomAlphanumeric(RESET_TOKEN_LENGTH);
    const reset = purpose === 'reset';
    const ttlMs = reset
      ? this.config.PASSWORD_RESET_TTL_MINUTES * 60_000
      : this.config.INVITATION_TTL_DAYS * 24 * 3_600_000;
    const validFor = reset
      ? `${this.config.PASSWORD_RESET_TTL_MINUTES} minutes`
      : `${this.config.INVITATION_TTL_DAYS} days`;
    await this.tokens.replaceUnused(
      userId,
      purpose,
      sha256Hex(token),
      new Date(this.clock.now().getTime() + ttlMs),
    );
    const link = passwordLink(this.config.PASSWORD_RESET_URL, token, email);
    await this.mail.send(passwordMail(purpose, email, token, link, validFor));
  }

  /**
   * `POST /reset-password`: a bad, expired or used token → 422 `invalid_reset_token`. A success
   * sets the password and revokes every sign-in token of the user. Marking the token used, the
   * new password, the revocation and dropping the user's other links are one transaction: all
   * happen or none.
   */
  async resetPassword(dto: ResetPasswordDto): Promise<void> {
    const user = await this.users.findByEmail(dto.email);
    if (!user) throw new InvalidResetTokenError();
    const now = this.clock.now();
    const candidates = await this.tokens.findUsableOfUser(user.id, now);
    // Every candidate is compared (constant time each), so timing does not tell which matched.
    const matching = candidates.filter((candidate) => secretMatchesHash(dto.token, candidate.tokenHash));
    if (matching.length === 0) throw new InvalidResetTokenError();
    const passwordHash = await this.hasher.hash(dto.password);
    const usedAt = this.clock.now();
    const done = await this.transactions.run(async () => {
      if (!(await this.tokens.markUsed(matching[0].id, user.id, usedAt))) return false;
      await this.users.setPasswordHash(user.id, passwordHash);
      await this.accessTokens.revokeAllOfUser(user.id);
      await this.tokens.deleteUnusedOfUser(user.id);
      return true;
    });
    if (!done) throw new InvalidResetTokenError();
  }
}
