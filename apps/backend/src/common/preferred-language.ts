/** The languages an account may choose: the user's setting, the mails' texts and the outbox share them. */
export const PREFERRED_LANGUAGES = ['fr-ch', 'ge-ch', 'en-gb'] as const;
export type PreferredLanguage = (typeof PREFERRED_LANGUAGES)[number];
