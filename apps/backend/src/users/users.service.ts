import { Injectable } from '@nestjs/common';
import { AppError, ErrorCode } from '@rt/errors';
import { AccessTokensService } from '../access-tokens/access-tokens.service';
import { randomAlphanumeric } from '../common/secrets';
import { changedMultiLineNames } from '../common/single-line';
import { Transactions } from '../database/transactions';
import { ImagesService } from '../images/images.service';
import { OrganizationsService } from '../organizations/organizations.service';
import { PasswordHasher } from '../passwords/password-hasher';
import { UpdateUserDto } from './dto/update-user.dto';
import { UserResponseDto } from './dto/user.response';
import { accountEmailOrRefuse, sameEmail } from './email-address';
import { EmailChangeService, emailTakenError } from './email-change.service';
import type { PreferredLanguage } from '../common/preferred-language';
import { AdminPasswordFile } from './admin-password-file';
import { MailedLinks } from './mailed-links';
import { emailIsConfirmed, User } from './user.entity';
import { toUserResponse } from './user.mapper';
import { EmailTakenError, NewUser, UsersRepository } from './users.repository';

/** What `createInvited` throws for an address already in use; the one error of users others catch. */
export { EmailTakenError };

/** The 422 of an address another account holds or that is reserved, on the field that named it. */
export { emailTakenError };

/** Whether the user's email is the one they proved to read (docs/decisions.md D-70). */
export { emailIsConfirmed };

/** The one comparison of two addresses: their canonical forms (docs/decisions.md D-26, D-70, D-77). */
export { sameEmail };

/**
 * What creating an account throws for an address reserved to another user: the old address of
 * their email change whose report link still works (docs/decisions.md D-70).
 */
export class EmailReservedError extends Error {
  constructor() {
    super('email reserved: the old address of another account, whose report link still works (D-70)');
    this.name = 'EmailReservedError';
  }
}

export const DEFAULT_ADMIN_EMAIL = 'admin@example.com';

export interface SuperAdminInput {
  email: string;
  /** Generated (24 characters of [A-Za-z0-9]) when absent, and returned once. */
  password?: string;
}

export interface InvitedUserInput {
  email: string;
  firstName: string;
  lastName: string;
  preferredLanguage: PreferredLanguage;
}

export interface ProvisionedSuperAdmin {
  email: string;
  outcome: 'created' | 'reset' | 'unchanged';
  generatedPassword?: string;
}

@Injectable()
export class UsersService {
  constructor(
    private readonly users: UsersRepository,
    private readonly organizations: OrganizationsService,
    private readonly accessTokens: AccessTokensService,
    private readonly hasher: PasswordHasher,
    private readonly transactions: Transactions,
    private readonly images: ImagesService,
    private readonly emailChanges: EmailChangeService,
    private readonly mailedLinks: MailedLinks,
    private readonly adminPasswordFile: AdminPasswordFile,
  ) {}

  /** The user with this email, compared in its canonical form (sign-in, password reset; D-77). */
  findByEmail(email: string): Promise<User | null> {
    return this.users.findByEmail(email);
  }

  findById(id: string): Promise<User | null> {
    return this.users.findById(id);
  }

  /**
   * Locks the user's row until the transaction ends, the first lock of every write of the
   * account's email or links (a reset, a confirmation, a report), so they run one after the other.
   */
  async lockForUpdate(userId: string): Promise<void> {
    await this.users.findByIdForUpdate(userId);
  }

  /**
   * An account for someone invited to manage an organization: no password (they set one through
   * the invitation link, POST /reset-password), so it cannot sign in until then. Throws
   * EmailTakenError when the address is already used (in its canonical form), EmailReservedError
   * when it is reserved to another user; the caller has refused the shapes D-77 refuses
   * (accountEmailOrRefuse).
   */
  createInvited(input: InvitedUserInput): Promise<User> {
    return this.createAccount({
      email: input.email.trim(),
      passwordHash: null,
      firstName: input.firstName,
      lastName: input.lastName,
      preferredLanguage: input.preferredLanguage,
      isSuperAdmin: false,
    });
  }

  /** Replaces the user's password hash (a rehash at sign-in, a password reset). */
  setPasswordHash(userId: string, passwordHash: string): Promise<void> {
    return this.users.setPasswordHash(userId, passwordHash);
  }

  /** The user proved to read `email`: a reset or invitation link mailed to it was used (D-70). */
  confirmEmail(userId: string, email: string): Promise<void> {
    return this.users.confirmEmail(userId, email);
  }

  /**
   * An account whose email is not confirmed but that has a password (written by the previous
   * release during an upgrade, D-70) is about to be invited as a manager: whoever holds the
   * password without having proved the address loses it and every sign-in token, so only the
   * reader of the invitation can sign in. Call it in the transaction that sends the invitation.
   */
  async withdrawUnconfirmedPassword(user: User): Promise<void> {
    if (user.passwordHash === null || emailIsConfirmed(user)) return;
    await this.users.clearPassword(user.id);
    await this.accessTokens.revokeAllOfUser(user.id);
  }

  async profile(userId: string): Promise<UserResponseDto> {
    const user = await this.users.findById(userId);
    if (!user) throw new AppError(ErrorCode.Unauthenticated);
    return this.resourceOf(user);
  }

  /** The user resource: the user with their memberships and the variants of their picture. */
  async resourceOf(user: User): Promise<UserResponseDto> {
    const [memberships, picture, pendingEmail] = await Promise.all([
      this.organizations.findMembershipsOfUser(user.id),
      this.images.variantsOfId(user.profilePictureId),
      this.emailChanges.pendingEmailOf(user.id),
    ]);
    return toUserResponse(user, memberships, picture, pendingEmail);
  }

  /**
   * `PUT /user`: every field replaced; `profile_picture_id: null` detaches the picture. A new email
   * (compared in its canonical form, D-77) needs `current_password` and takes effect only once the
   * new address confirms it (docs/decisions.md D-70): the answer keeps the email and shows
   * `pending_email`. The same email in another spelling (case, a punycode domain) changes nothing
   * and needs no password; a new one of a refused shape → 422 with its `reason` (D-77).
   */
  async replaceProfile(
    userId: string,
    requestTokenId: string | null,
    dto: UpdateUserDto,
  ): Promise<UserResponseDto> {
    const user = await this.users.findById(userId);
    if (!user) throw new AppError(ErrorCode.Unauthenticated);
    AppError.throwIfInvalid(
      changedMultiLineNames({
        first_name: [dto.first_name, user.firstName],
        last_name: [dto.last_name, user.lastName],
      }),
    );
    const newEmail = dto.email.trim();
    const emailChanges = !sameEmail(newEmail, user.email);
    if (emailChanges) {
      accountEmailOrRefuse('email', dto.email);
      if (dto.current_password === undefined) {
        throw AppError.validation({
          current_password: ['The current password field is required to change the email.'],
        });
      }
      if (!(await this.hasher.verify(dto.current_password, user.passwordHash))) {
        throw AppError.validation({ current_password: ['The current password is incorrect.'] });
      }
      if (await this.emailChanges.claimedByAnother(newEmail, userId)) throw emailTakenError('email');
    }
    if (dto.profile_picture_id !== null && !(await this.images.exists(dto.profile_picture_id))) {
      throw AppError.validation({ profile_picture_id: ['The selected profile picture id is invalid.'] });
    }
    await this.transactions.run(async () => {
      await this.users.updateProfile(userId, {
        firstName: dto.first_name,
        lastName: dto.last_name,
        preferredLanguage: dto.preferred_language,
        profilePictureId: dto.profile_picture_id,
      });
      if (emailChanges) {
        // `user` as stored before this request: its emails never carry the request's fields.
        await this.emailChanges.request({ user, newEmail, requestedByTokenId: requestTokenId });
      }
    });
    return this.profile(userId);
  }

  /**
   * `user:create-admin`: creates the super-admin, or makes an existing account one with a new
   * password (every device of that account is signed out).
   */
  async createOrResetSuperAdmin(input: SuperAdminInput): Promise<ProvisionedSuperAdmin> {
    const password = input.password ?? randomAlphanumeric(24);
    const generatedPassword = input.password ? undefined : password;
    const passwordHash = await this.hasher.hash(password);
    const existing = await this.users.findByEmail(input.email);
    // The operator's address names a new account only in a shape D-77 accepts.
    if (!existing) accountEmailOrRefuse('email', input.email);
    if (existing) {
      await this.transactions.run(async () => {
        await this.users.resetAsSuperAdmin(existing.id, passwordHash);
        // The operator named this address: it counts as confirmed (D-70).
        await this.users.confirmEmail(existing.id, existing.email);
        // As a reset by link (D-26): signed out everywhere, and the links mailed to it end.
        await this.accessTokens.revokeAllOfUser(existing.id);
        await this.mailedLinks.endAllOf(existing.id);
      });
      await this.adminPasswordFile.endFor(existing.email);
      return { email: existing.email, outcome: 'reset', generatedPassword };
    }
    await this.createSuperAdmin(input.email, passwordHash);
    return { email: input.email, outcome: 'created', generatedPassword };
  }

  /**
   * The embedded demo run: a super-admin exists after start-up. With ADMIN_EMAIL, that account is
   * created when missing; without, `admin@example.com` is created when no super-admin exists at
   * all. An existing account is never changed (use `user:create-admin` to reset it).
   */
  async seedSuperAdmin(input: { email?: string; password?: string }): Promise<ProvisionedSuperAdmin> {
    const email = input.email ?? DEFAULT_ADMIN_EMAIL;
    const present = input.email
      ? (await this.users.findByEmail(email)) !== null
      : await this.users.existsSuperAdmin();
    if (present) return { email, outcome: 'unchanged' };
    const password = input.password ?? randomAlphanumeric(24);
    await this.createSuperAdmin(email, await this.hasher.hash(password));
    return { email, outcome: 'created', generatedPassword: input.password ? undefined : password };
  }

  private async createSuperAdmin(email: string, passwordHash: string): Promise<void> {
    await this.createAccount({
      email: email.trim(),
      passwordHash,
      firstName: 'Super',
      lastName: 'Admin',
      preferredLanguage: 'en-gb',
      isSuperAdmin: true,
      // The operator named this address (create-admin, ADMIN_EMAIL): it counts as confirmed (D-70).
      emailConfirmed: true,
    });
  }

  /** Every new account: never with an address reserved to another user (docs/decisions.md D-70). */
  private async createAccount(user: NewUser): Promise<User> {
    if (await this.emailChanges.reservedForAnother(user.email, null)) throw new EmailReservedError();
    return this.users.create(user);
  }
}
