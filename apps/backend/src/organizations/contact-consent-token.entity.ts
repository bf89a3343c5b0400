import { Entity, Index } from 'typeorm';
import { TimestampColumn, UuidColumn } from '../database/columns';
import { BelongsTo } from '../database/relations';
import { MailedLinkToken } from '../mail/mailed-link-token';
import { SignupContactConsent } from './contact-consent.entity';

/**
 * The token of a contact-consent link (docs/decisions.md D-78), one per delivery of the email.
 * Single-use, valid CONTACT_CONSENT_TTL_DAYS from its issue.
 */
@Entity('signup_contact_consent_tokens')
@Index('signup_contact_consent_tokens_token_hash_unique', ['tokenHash'], { unique: true })
@Index('signup_contact_consent_tokens_consent_id_idx', ['consentId'])
export class SignupContactConsentToken extends MailedLinkToken {
  @UuidColumn('consent_id')
  consentId!: string;

  @TimestampColumn('expires_at')
  expiresAt!: Date;

  @BelongsTo(() => SignupContactConsent, 'consent_id', 'CASCADE')
  consent?: SignupContactConsent;
}
