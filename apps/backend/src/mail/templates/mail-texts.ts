import type { PreferredLanguage } from '../../users/user.entity';
import type { MailTemplate } from '../mail-outbox';

/**
 * The words of every email in every language. `{name}` placeholders are filled from the
 * message's values (HTML-escaped in the HTML part); `{link}` is the call to action.
 */
export interface MailTexts {
  subject: string;
  greeting: string;
  /** Paragraphs before the link. */
  body: string[];
  action: string;
  /** Paragraphs after the link. */
  footer: string[];
}

export const MAIL_TEXTS: Record<MailTemplate, Record<PreferredLanguage, MailTexts>> = {
  'password-reset': {
    'en-gb': {
      subject: 'Reset your password',
      greeting: 'Hello {first_name},',
      body: ['Someone asked to reset the password of your Road Trip account.'],
      action: 'Choose a new password',
      footer: ['The link is valid for {valid_for}. If it was not you, ignore this email.'],
    },
    'fr-ch': {
      subject: 'Réinitialisez votre mot de passe',
      greeting: 'Bonjour {first_name},',
      body: ['Une demande de réinitialisation du mot de passe de votre compte Road Trip a été faite.'],
      action: 'Choisir un nouveau mot de passe',
      footer: [
        "Le lien est valable {valid_for}. Si vous n'êtes pas à l'origine de cette demande, ignorez cet e-mail.",
      ],
    },
    'ge-ch': {
      subject: 'Passwort zurücksetzen',
      greeting: 'Grüezi {first_name},',
      body: ['Für Ihr Road-Trip-Konto wurde das Zurücksetzen des Passworts angefordert.'],
      action: 'Neues Passwort wählen',
      footer: ['Der Link ist {valid_for} gültig. Falls Sie das nicht waren, ignorieren Sie diese E-Mail.'],
    },
  },
  invitation: {
    'en-gb': {
      subject: 'You are invited to manage {organization_name}',
      greeting: 'Hello {first_name},',
      body: ['You are the manager of {organization_name} on Road Trip. Choose your password to sign in.'],
      action: 'Choose your password',
      footer: ['The link is valid for {valid_for}.'],
    },
    'fr-ch': {
      subject: 'Vous êtes invité·e à gérer {organization_name}',
      greeting: 'Bonjour {first_name},',
      body: [
        'Vous êtes responsable de {organization_name} sur Road Trip. Choisissez votre mot de passe pour vous connecter.',
      ],
      action: 'Choisir mon mot de passe',
      footer: ['Le lien est valable {valid_for}.'],
    },
    'ge-ch': {
      subject: 'Einladung: {organization_name} verwalten',
      greeting: 'Grüezi {first_name},',
      body: ['Sie verwalten {organization_name} auf Road Trip. Wählen Sie Ihr Passwort, um sich anzumelden.'],
      action: 'Passwort wählen',
      footer: ['Der Link ist {valid_for} gültig.'],
    },
  },
  'manager-added': {
    'en-gb': {
      subject: 'You now manage {organization_name}',
      greeting: 'Hello {first_name},',
      body: ['You are the manager of {organization_name} on Road Trip. Sign in with your usual password.'],
      action: 'Sign in',
      footer: [],
    },
    'fr-ch': {
      subject: 'Vous gérez désormais {organization_name}',
      greeting: 'Bonjour {first_name},',
      body: [
        'Vous êtes responsable de {organization_name} sur Road Trip. Connectez-vous avec votre mot de passe habituel.',
      ],
      action: 'Se connecter',
      footer: [],
    },
    'ge-ch': {
      subject: 'Sie verwalten jetzt {organization_name}',
      greeting: 'Grüezi {first_name},',
      body: ['Sie verwalten {organization_name} auf Road Trip. Melden Sie sich mit Ihrem Passwort an.'],
      action: 'Anmelden',
      footer: [],
    },
  },
};

/** How long a link stays valid, in words of the language. */
export function durationInWords(
  language: PreferredLanguage,
  amount: number,
  unit: 'minutes' | 'days',
): string {
  const words: Record<PreferredLanguage, Record<'minutes' | 'days', [string, string]>> = {
    'en-gb': { minutes: ['minute', 'minutes'], days: ['day', 'days'] },
    'fr-ch': { minutes: ['minute', 'minutes'], days: ['jour', 'jours'] },
    'ge-ch': { minutes: ['Minute', 'Minuten'], days: ['Tag', 'Tage'] },
  };
  const [one, many] = words[language][unit];
  const phrase = `${amount} ${amount === 1 ? one : many}`;
  if (language === 'fr-ch') return `pendant ${phrase}`;
  if (language === 'ge-ch') return `${phrase} lang`;
  return phrase;
}
