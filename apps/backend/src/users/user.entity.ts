import { Check, Column, Entity, Index } from 'typeorm';
import { CreatedAtColumn, UpdatedAtColumn, UuidColumn, UuidPrimaryColumn } from '../database/columns';
import { BelongsTo } from '../database/relations';
import type { PreferredLanguage } from '../common/preferred-language';
import { Image } from '../images/image.entity';
import { sameEmail } from './email-address';

@Entity('users')
@Check('users_preferred_language_check', `"preferred_language" IN ('fr-ch', 'ge-ch', 'en-gb')`)
// Accounts are unique on the canonical form of their address (docs/decisions.md D-77).
@Index('users_email_canonical_unique', ['emailCanonical'], { unique: true })
// Rows the previous release wrote during a rollout have no canonical form yet: found by their exact
// address until the next release's migration fills it (D-77).
@Index('users_email_without_canonical_idx', ['email'], { where: '"email_canonical" IS NULL' })
export class User {
  @UuidPrimaryColumn()
  id!: string;

  /** As the user typed it, shown and mailed to; compared through emailCanonical. */
  @Column({ type: 'varchar', length: 255 })
  email!: string;

  /**
   * canonicalEmail(email) (src/users/email-address.ts), written with every write of `email`; what
   * accounts are unique on and found by. Null only on a row the previous release wrote during a
   * rollout (docs/decisions.md D-77).
   */
  @Column({ name: 'email_canonical', type: 'varchar', nullable: true })
  emailCanonical!: string | null;

  /**
   * The address the user proved to read (a used reset or invitation link, a confirmed email change)
   * or that an operator gave `user:create-admin`; null when none. The email counts as confirmed only
   * while both have one canonical form (emailIsConfirmed, D-77), so a change that skipped the
   * confirmation leaves it unconfirmed (docs/decisions.md D-70).
   */
  @Column({ name: 'confirmed_email', type: 'varchar', length: 255, nullable: true })
  confirmedEmail!: string | null;

  /** `$scrypt$…` (src/passwords/password-hash.ts); null until an invited user sets a first password. */
  @Column({ name: 'password_hash', type: 'text', nullable: true })
  passwordHash!: string | null;

  @Column({ name: 'first_name', type: 'varchar', length: 255 })
  firstName!: string;

  @Column({ name: 'last_name', type: 'varchar', length: 255 })
  lastName!: string;

  @Column({ name: 'preferred_language', type: 'varchar', length: 8 })
  preferredLanguage!: PreferredLanguage;

  @Column({ name: 'is_super_admin', type: 'boolean', default: false })
  isSuperAdmin!: boolean;

  /** An image of `POST /images`; deleting the image detaches it. */
  @UuidColumn('profile_picture_id', { nullable: true })
  profilePictureId!: string | null;

  @BelongsTo(() => Image, 'profile_picture_id', 'SET NULL')
  profilePicture?: Image;

  @CreatedAtColumn()
  createdAt!: Date;

  @UpdatedAtColumn()
  updatedAt!: Date;
}

/** Whether the user's current email is the one they proved to read (docs/decisions.md D-70, D-77). */
export const emailIsConfirmed = (user: Pick<User, 'email' | 'confirmedEmail'>): boolean =>
  user.confirmedEmail !== null && sameEmail(user.confirmedEmail, user.email);
