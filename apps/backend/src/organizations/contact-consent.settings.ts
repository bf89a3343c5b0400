import { IntSetting } from '@rt/platform';

/** How long the link asking an existing account to be a signup's contact works (docs/decisions.md D-78). */
export class ContactConsentSettings {
  /** Lifetime of a contact-consent link, from the delivery of its email. */
  @IntSetting({ min: 1, max: 90 })
  CONTACT_CONSENT_TTL_DAYS: number = 7;
}
