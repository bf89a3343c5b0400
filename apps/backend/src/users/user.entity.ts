import { Check, Column, Entity, Index, JoinColumn, ManyToOne } from 'typeorm';
import { CreatedAtColumn, UpdatedAtColumn, UuidPrimaryColumn } from '../database/columns';
import { Image } from '../images/image.entity';

export const PREFERRED_LANGUAGES = ['fr-ch', 'ge-ch', 'en-gb'] as const;
export type PreferredLanguage = (typeof PREFERRED_LANGUAGES)[number];

@Entity('users')
@Check('users_preferred_language_check', `"preferred_language" IN ('fr-ch', 'ge-ch', 'en-gb')`)
// Emails are unique case-insensitively: a unique index on lower(email), written by hand in the
// migration (TypeORM cannot express an expression index), hence not synchronised from here.
@Index('users_email_lower_unique', { synchronize: false })
export class User {
  @UuidPrimaryColumn()
  id!: string;

  /** As the user typed it; compared and kept unique on lower(email). */
  @Column({ type: 'varchar', length: 255 })
  email!: string;

  /**
   * The address the user proved to read (a used reset or invitation link, a confirmed email change)
   * or that an operator gave `user:create-admin`; null when none. The email counts as confirmed only
   * while it equals this one case-insensitively (emailIsConfirmed), so a change that skipped the
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
  @Column({ name: 'profile_picture_id', type: 'uuid', nullable: true })
  profilePictureId!: string | null;

  @ManyToOne(() => Image, { onDelete: 'SET NULL' })
  @JoinColumn({ name: 'profile_picture_id' })
  profilePicture?: Image;

  @CreatedAtColumn()
  createdAt!: Date;

  @UpdatedAtColumn()
  updatedAt!: Date;
}

/** Whether the user's current email is the one they proved to read (docs/decisions.md D-70). */
export const emailIsConfirmed = (user: Pick<User, 'email' | 'confirmedEmail'>): boolean =>
  user.confirmedEmail !== null && user.confirmedEmail.toLowerCase() === user.email.toLowerCase();

/**
 * Whether two spellings name the same address, the one comparison of addresses in code (a reset
 * token's address and the account's, D-26; a report's address and the account's, D-70).
 */
export const sameEmailAddress = (a: string, b: string): boolean => a.toLowerCase() === b.toLowerCase();
