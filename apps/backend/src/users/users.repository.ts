import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { isUniqueViolation } from '../database/errors';
import { transactional } from '../database/transactions';
import { PreferredLanguage, User } from './user.entity';

/** Thrown when an email is already used by another user (index users_email_lower_unique). */
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
}

export interface ProfileFields {
  email: string;
  firstName: string;
  lastName: string;
  preferredLanguage: PreferredLanguage;
  profilePictureId: string | null;
}

const EMAIL_INDEX = 'users_email_lower_unique';

/** The one writer of `users`; other features go through UsersService. */
@Injectable()
export class UsersRepository {
  constructor(@InjectRepository(User) private readonly plain: Repository<User>) {}

  /** The current transaction's repository inside `Transactions.run`, else the plain one. */
  private get repo(): Repository<User> {
    return transactional(this.plain);
  }

  findById(id: string): Promise<User | null> {
    return this.repo.findOneBy({ id });
  }

  /** Case-insensitive, on users_email_lower_unique. */
  findByEmail(email: string): Promise<User | null> {
    return this.repo
      .createQueryBuilder('u')
      .where('lower(u.email) = lower(:email)', { email: email.trim() })
      .getOne();
  }

  /** Whether another user has this email (any case). The unique index still settles races. */
  emailUsedByAnother(email: string, userId: string): Promise<boolean> {
    return this.repo
      .createQueryBuilder('u')
      .where('lower(u.email) = lower(:email)', { email: email.trim() })
      .andWhere('u.id <> :userId', { userId })
      .getExists();
  }

  async existsSuperAdmin(): Promise<boolean> {
    return this.repo.existsBy({ isSuperAdmin: true });
  }

  async create(user: NewUser): Promise<User> {
    try {
      return await this.repo.save(this.repo.create(user));
    } catch (error) {
      if (isUniqueViolation(error, EMAIL_INDEX)) throw new EmailTakenError();
      throw error;
    }
  }

  async updateProfile(id: string, fields: ProfileFields): Promise<void> {
    try {
      await this.repo.update({ id }, fields);
    } catch (error) {
      if (isUniqueViolation(error, EMAIL_INDEX)) throw new EmailTakenError();
      throw error;
    }
  }

  async setPasswordHash(id: string, passwordHash: string): Promise<void> {
    await this.repo.update({ id }, { passwordHash });
  }

  /** Makes the user a super-admin with a new password (`user:create-admin` on an existing account). */
  async resetAsSuperAdmin(id: string, passwordHash: string): Promise<void> {
    await this.repo.update({ id }, { passwordHash, isSuperAdmin: true });
  }
}
