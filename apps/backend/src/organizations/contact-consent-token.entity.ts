import { Column, Entity, Index, JoinColumn, ManyToOne } from 'typeorm';
import { CreatedAtColumn, TimestampColumn, UuidPrimaryColumn } from '../database/columns';
import { SignupContactConsent } from './contact-consent.entity';

/**
 * The token of a contact-consent link (docs/decisions.md D-78). Issued when the email is
 * delivered, one per delivery, so the outbox never holds it; only its SHA-256 is stored.
 * Single-use, valid CONTACT_CONSENT_TTL_DAYS from its issue.
 */
@Entity('signup_contact_consent_tokens')
@Index('signup_contact_consent_tokens_token_hash_unique', ['tokenHash'], { unique: true })
@Index('signup_contact_consent_tokens_consent_id_idx', ['consentId'])
export class SignupContactConsentToken {
  @UuidPrimaryColumn()
  id!: string;

  @Column({ name: 'consent_id', type: 'uuid' })
  consentId!: string;

  /** Hex SHA-256 of the token. */
  @Column({ name: 'token_hash', type: 'varchar', length: 64 })
  tokenHash!: string;

  @TimestampColumn('expires_at')
  expiresAt!: Date;

  /** The outbox message whose delivery issued it (no foreign key: sent messages may be pruned). */
  @Column({ name: 'outbox_message_id', type: 'uuid', nullable: true })
  outboxMessageId!: string | null;

  @TimestampColumn('used_at', { nullable: true })
  usedAt!: Date | null;

  @CreatedAtColumn()
  createdAt!: Date;

  @ManyToOne(() => SignupContactConsent, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'consent_id' })
  consent?: SignupContactConsent;
}
