import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { isUniqueViolation } from '../database/errors';
import { TransactionalRepository } from '../database/transactions';
import { canonicalEmail } from './email-address';
import type { PreferredLanguage } from '../common/preferred-language';
import { User } from './user.entity';

/** Thrown when an email is already used by another user (index users_email_canonical_unique). */
export class EmailTakenError extends Error {
  constructor() {
    super('email taken');
    this.name = 'EmailTakenError';
  }
}

export interface NewUser {
  email: string;
  passwordHash: string | null;
  firstName: string;
  lastName: string;
  preferredLanguage: PreferredLanguage;
  isSuperAdmin: boolean;
  /** Whether the address counts as confirmed from the start (create-admin, the demo seed); default no. */
  emailConfirmed?: boolean;
}

/** What `PUT /user` replaces at once; the email changes only through a confirmation (EmailChangeService). */
export interface ProfileFields {
  firstName: string;
  lastName: string;
  preferredLanguage: PreferredLanguage;
  profilePictureId: string | null;
}

/** An address compared in its canonical form; PostgreSQL never folds it (docs/decisions.md D-77). */
const SAME_ADDRESS = '(u.email_canonical = :canonical OR (u.email_canonical IS NULL AND u.email = :email))';
const addressParameters = (email: string) => ({ canonical: canonicalEmail(email), email: email.trim() });

const EMAIL_INDEX = 'users_email_canonical_unique';

/** The one writer of `users`; other features go through UsersService. */
@Injectable()
export class UsersRepository extends TransactionalRepository<User> {
  constructor(@InjectRepository(User) plain: Repository<User>) {
    super(plain);
  }

  findById(id: string): Promise<User | null> {
    return this.repo.findOneBy({ id });
  }

  /**
   * The user, its row locked until the transaction ends: the writes of one account's email and
   * links (a confirmation, a report, a reset) run one after the other, each taking this lock first.
   */
  findByIdForUpdate(id: string): Promise<User | null> {
    return this.repo
      .createQueryBuilder('u')
      .where('u.id = :id', { id })
      .setLock('pessimistic_write')
      .getOne();
  }

  /**
   * The user whose address has this canonical form (users_email_canonical_unique), or, among rows
   * without one yet, this exact address (users_email_without_canonical_idx; D-77).
   */
  findByEmail(email: string): Promise<User | null> {
    return this.repo.createQueryBuilder('u').where(SAME_ADDRESS, addressParameters(email)).getOne();
  }

  /** Whether another user has this email (in its canonical form). The unique index still settles races. */
  emailUsedByAnother(email: string, userId: string): Promise<boolean> {
    return this.repo
      .createQueryBuilder('u')
      .where(SAME_ADDRESS, addressParameters(email))
      .andWhere('u.id <> :userId', { userId })
      .getExists();
  }

  async existsSuperAdmin(): Promise<boolean> {
    return this.repo.existsBy({ isSuperAdmin: true });
  }

  async create(user: NewUser): Promise<User> {
    const { emailConfirmed, ...fields } = user;
    try {
      return await this.repo.save(
        this.repo.create({
          ...fields,
          emailCanonical: canonicalEmail(fields.email),
          confirmedEmail: emailConfirmed ? fields.email : null,
        }),
      );
    } catch (error) {
      if (isUniqueViolation(error, EMAIL_INDEX)) throw new EmailTakenError();
      throw error;
    }
  }

  async updateProfile(id: string, fields: ProfileFields): Promise<void> {
    await this.repo.update({ id }, fields);
  }

  /** A confirmed email change, or its undoing: the address becomes the user's and counts as confirmed. */
  async changeEmail(id: string, email: string): Promise<void> {
    try {
      await this.repo.update({ id }, { email, emailCanonical: canonicalEmail(email), confirmedEmail: email });
    } catch (error) {
      if (isUniqueViolation(error, EMAIL_INDEX)) throw new EmailTakenError();
      throw error;
    }
  }

  /** The user proved to read `email` (a used reset or invitation link). */
  async confirmEmail(id: string, email: string): Promise<void> {
    await this.repo.update({ id }, { confirmedEmail: email });
  }

  /** No password: only a link mailed to the address can set one again. */
  async clearPassword(id: string): Promise<void> {
    await this.repo.update({ id }, { passwordHash: null });
  }

  async setPasswordHash(id: string, passwordHash: string): Promise<void> {
    await this.repo.update({ id }, { passwordHash });
  }

  /** Makes the user a super-admin with a new password (`user:create-admin` on an existing account). */
  async resetAsSuperAdmin(id: string, passwordHash: string): Promise<void> {
    await this.repo.update({ id }, { passwordHash, isSuperAdmin: true });
  }
}
