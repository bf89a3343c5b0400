import { Check, Column, Entity, Index } from 'typeorm';
import { UuidColumn } from '../database/columns';
import { BelongsTo } from '../database/relations';
import { MailedLinkToken } from '../mail/mailed-link-token';
import { EmailChange } from './email-change.entity';

export const EMAIL_CHANGE_TOKEN_PURPOSES = ['confirm', 'report'] as const;
export type EmailChangeTokenPurpose = (typeof EMAIL_CHANGE_TOKEN_PURPOSES)[number];

/**
 * The token of an email change's link: `confirm` (mailed to the new address) or `report` (the
 * notice to the old one), one per delivery of the email. Single-use; it expires with its change.
 */
@Entity('email_change_tokens')
@Check('email_change_tokens_purpose_check', `"purpose" IN ('confirm', 'report')`)
@Index('email_change_tokens_token_hash_unique', ['tokenHash'], { unique: true })
@Index('email_change_tokens_email_change_id_idx', ['emailChangeId'])
export class EmailChangeToken extends MailedLinkToken {
  @UuidColumn('email_change_id')
  emailChangeId!: string;

  @Column({ type: 'varchar', length: 16 })
  purpose!: EmailChangeTokenPurpose;

  @BelongsTo(() => EmailChange, 'email_change_id', 'CASCADE')
  emailChange?: EmailChange;
}
