import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { IsNull, Repository } from 'typeorm';
import { transactional } from '../database/transactions';
import { SignupContactConsentToken } from './contact-consent-token.entity';
import { SignupContactConsent } from './contact-consent.entity';

export interface NewContactConsentToken {
  consentId: string;
  tokenHash: string;
  expiresAt: Date;
  outboxMessageId: string;
}

/** The one writer of `signup_contact_consents` and their tokens (docs/decisions.md D-78). */
@Injectable()
export class ContactConsentsRepository {
  constructor(
    @InjectRepository(SignupContactConsent) private readonly plainConsents: Repository<SignupContactConsent>,
    @InjectRepository(SignupContactConsentToken)
    private readonly plainTokens: Repository<SignupContactConsentToken>,
  ) {}

  /** The current transaction's repositories inside `Transactions.run`, else the plain ones. */
  private get consents(): Repository<SignupContactConsent> {
    return transactional(this.plainConsents);
  }

  private get tokens(): Repository<SignupContactConsentToken> {
    return transactional(this.plainTokens);
  }

  insert(organizationId: string, userId: string): Promise<SignupContactConsent> {
    return this.consents.save(this.consents.create({ organizationId, userId }));
  }

  findById(id: string): Promise<SignupContactConsent | null> {
    return this.consents.findOneBy({ id });
  }

  /** The organization's consent not accepted yet (signup_contact_consents_organization_unique); null if none. */
  findPendingOfOrganization(organizationId: string): Promise<SignupContactConsent | null> {
    return this.consents.findOneBy({ organizationId, acceptedAt: IsNull() });
  }

  async addToken(token: NewContactConsentToken): Promise<void> {
    await this.tokens.insert(token);
  }

  /**
   * The unused token with this hash (signup_contact_consent_tokens_token_hash_unique) and its
   * consent, both rows locked until the transaction ends: two uses of one link run one after the
   * other, and the second finds it used.
   */
  async findUnusedTokenForUpdate(
    tokenHash: string,
  ): Promise<{ token: SignupContactConsentToken; consent: SignupContactConsent } | null> {
    const token = await this.tokens
      .createQueryBuilder('t')
      .where('t.token_hash = :tokenHash AND t.used_at IS NULL', { tokenHash })
      .setLock('pessimistic_write')
      .getOne();
    if (!token) return null;
    const consent = await this.consents
      .createQueryBuilder('c')
      .where('c.id = :id', { id: token.consentId })
      .setLock('pessimistic_write')
      .getOne();
    return consent ? { token, consent } : null;
  }

  async markTokenUsed(id: string, now: Date): Promise<void> {
    await this.tokens.update({ id }, { usedAt: now });
  }

  /** Ends the unused links of the user's consents (a confirmed email change, a report: D-70). */
  async endUnusedTokensOfUser(userId: string, now: Date): Promise<void> {
    await this.tokens
      .createQueryBuilder()
      .update()
      .set({ usedAt: now })
      .where('used_at IS NULL')
      .andWhere('consent_id IN (SELECT c.id FROM signup_contact_consents c WHERE c.user_id = :userId)', {
        userId,
      })
      .execute();
  }

  async markAccepted(id: string, now: Date): Promise<void> {
    await this.consents.update({ id }, { acceptedAt: now });
  }
}
