import { Injectable, OnModuleInit } from '@nestjs/common';
import { Clock } from '../common/clock';
import { randomAlphanumeric, sha256Hex } from '../common/secrets';
import { DeliveryValues } from '../mail/mail-links';
import { MailOutbox } from '../mail/mail-outbox';
import { MailSettings } from '../mail/mail.settings';
import type { OutboxMessage } from '../mail/outbox-message.entity';
import { durationInWords } from '../mail/templates/mail-texts';
import { ThrottlingService } from '../throttling/throttling.service';
import { MailedLinks } from '../users/mailed-links';
import type { User } from '../users/user.entity';
import type { SignupContactConsent } from './contact-consent.entity';
import { ContactConsentSettings } from './contact-consent.settings';
import { ContactConsentsRepository } from './contact-consents.repository';
import { InvalidContactConsentTokenError } from './invalid-contact-consent-token.error';

/** Contact-consent tokens: 48 characters of [A-Za-z0-9] (~285 bits); only their SHA-256 is stored. */
export const CONTACT_CONSENT_TOKEN_LENGTH = 48;

/** The client app's page the link opens (under CLIENT_APP_URL), with `?token=…`. */
const PAGE = '/organization-contact-consent';

const DAY_MS = 24 * 3_600_000;

/**
 * The consent of an existing account that a public signup named as its contact
 * (docs/decisions.md D-78): asked by email, with a link issued at delivery (the outbox holds no
 * token), and taken with that link's token. Every method runs in the caller's transaction; what
 * a consent leads to (the membership, the manager's notice) is OrganizationManagementService's.
 */
@Injectable()
export class ContactConsentService implements OnModuleInit {
  constructor(
    private readonly consents: ContactConsentsRepository,
    private readonly mailOutbox: MailOutbox,
    private readonly deliveryValues: DeliveryValues,
    private readonly throttling: ThrottlingService,
    private readonly mailedLinks: MailedLinks,
    private readonly clock: Clock,
    private readonly settings: ContactConsentSettings,
    private readonly mailSettings: MailSettings,
  ) {}

  onModuleInit(): void {
    this.deliveryValues.register('contact-consent', (message) => this.issueLink(message));
    // A link mailed to an address the account has left, or that a report took back, ends (D-70).
    this.mailedLinks.register((userId) => this.consents.endUnusedTokensOfUser(userId, this.clock.now()));
  }

  /**
   * Records that the signup of this organization waits for the account's consent, and mails the
   * account the request unless a signup already did within the signup window (the signup answers
   * the same either way, so it tells nobody whether the address has an account).
   */
  async askAtSignup(organization: { id: string; name: string }, user: User): Promise<void> {
    const consent = await this.consents.insert(organization.id, user.id);
    if (await this.throttling.mayMailSignupContact(user.id))
      await this.mail(consent, user, organization.name);
  }

  /** The organization's consent not given yet; null when none is awaited. */
  pendingOf(organizationId: string): Promise<SignupContactConsent | null> {
    return this.consents.findPendingOfOrganization(organizationId);
  }

  /** Mails the account the request (again), in its own language: the approval's notice while consent is awaited. */
  async mail(consent: SignupContactConsent, user: User, organizationName: string): Promise<void> {
    await this.mailOutbox.enqueue({
      template: 'contact-consent',
      to: user.email,
      language: user.preferredLanguage,
      payload: { consent_id: consent.id, first_name: user.firstName, organization_name: organizationName },
    });
  }

  /**
   * Takes the consent of a link: marks the token used and the consent given, both rows locked
   * until the caller's transaction ends. A bad, expired or used token, or one of a consent
   * already given → InvalidContactConsentTokenError (422).
   */
  async take(token: string): Promise<SignupContactConsent> {
    const now = this.clock.now();
    const found = await this.consents.findUnusedTokenForUpdate(sha256Hex(token));
    if (!found || found.token.expiresAt <= now || found.consent.acceptedAt) {
      throw new InvalidContactConsentTokenError();
    }
    await this.consents.markTokenUsed(found.token.id, now);
    await this.consents.markAccepted(found.consent.id, now);
    return found.consent;
  }

  /**
   * The link of a consent email, issued as the email is composed for delivery. Each delivery
   * issues its own token and leaves the earlier ones valid: a request mailed at the signup and
   * again at the approval answers with either link (both links of an email delivered twice after
   * a crash too), and any of them gives the one consent.
   */
  private async issueLink(message: OutboxMessage): Promise<Record<string, string>> {
    const consent = await this.consents.findById(message.payload.consent_id);
    if (!consent) throw new Error('the contact consent of this message no longer exists');
    const token = randomAlphanumeric(CONTACT_CONSENT_TOKEN_LENGTH);
    await this.consents.addToken({
      consentId: consent.id,
      tokenHash: sha256Hex(token),
      expiresAt: new Date(this.clock.now().getTime() + this.settings.CONTACT_CONSENT_TTL_DAYS * DAY_MS),
      outboxMessageId: message.id,
    });
    const link = new URL(PAGE, this.mailSettings.CLIENT_APP_URL);
    link.searchParams.set('token', token);
    return {
      token,
      link: link.toString(),
      valid_for: durationInWords(message.language, this.settings.CONTACT_CONSENT_TTL_DAYS, 'days'),
    };
  }
}
