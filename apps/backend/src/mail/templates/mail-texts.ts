import type { PreferredLanguage } from '../../common/preferred-language';
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
  'email-change-confirmation': {
    'en-gb': {
      subject: 'Confirm your new email address',
      greeting: 'Hello {first_name},',
      body: [
        'You asked to use {new_email} for your Road Trip account. The change takes effect once you confirm it.',
      ],
      action: 'Confirm this address',
      footer: ['The link is valid for {valid_for}. If it was not you, ignore this email: nothing changes.'],
    },
    'fr-ch': {
      subject: 'Confirmez votre nouvelle adresse e-mail',
      greeting: 'Bonjour {first_name},',
      body: [
        'Vous avez demandé à utiliser {new_email} pour votre compte Road Trip. Le changement prend effet dès que vous le confirmez.',
      ],
      action: 'Confirmer cette adresse',
      footer: [
        "Le lien est valable {valid_for}. Si vous n'êtes pas à l'origine de cette demande, ignorez cet e-mail : rien ne change.",
      ],
    },
    'ge-ch': {
      subject: 'Bestätigen Sie Ihre neue E-Mail-Adresse',
      greeting: 'Grüezi {first_name},',
      body: [
        'Sie möchten {new_email} für Ihr Road-Trip-Konto verwenden. Die Änderung gilt, sobald Sie sie bestätigen.',
      ],
      action: 'Adresse bestätigen',
      footer: [
        'Der Link ist {valid_for} gültig. Falls Sie das nicht waren, ignorieren Sie diese E-Mail: Es ändert sich nichts.',
      ],
    },
  },
  'email-change-notice': {
    'en-gb': {
      subject: 'Your email address is being changed',
      greeting: 'Hello {first_name},',
      body: [
        'Someone asked to change the email address of your Road Trip account to {new_email}. It takes effect once that address confirms it.',
      ],
      action: 'It was not me: cancel the change and sign out everywhere',
      footer: [
        'The link is valid for {valid_for}; it also undoes the change if it was already confirmed. Then choose a new password with "Forgot password". If it was you, ignore this email.',
      ],
    },
    'fr-ch': {
      subject: 'Votre adresse e-mail va être modifiée',
      greeting: 'Bonjour {first_name},',
      body: [
        "Une demande de changement de l'adresse e-mail de votre compte Road Trip vers {new_email} a été faite. Elle prend effet dès que cette adresse la confirme.",
      ],
      action: "Ce n'était pas moi : annuler le changement et me déconnecter partout",
      footer: [
        "Le lien est valable {valid_for} ; il annule aussi le changement s'il a déjà été confirmé. Choisissez ensuite un nouveau mot de passe avec « Mot de passe oublié ». Si c'était vous, ignorez cet e-mail.",
      ],
    },
    'ge-ch': {
      subject: 'Ihre E-Mail-Adresse wird geändert',
      greeting: 'Grüezi {first_name},',
      body: [
        'Für Ihr Road-Trip-Konto wurde eine Änderung der E-Mail-Adresse auf {new_email} angefordert. Sie gilt, sobald diese Adresse sie bestätigt.',
      ],
      action: 'Das war ich nicht: Änderung abbrechen und überall abmelden',
      footer: [
        'Der Link ist {valid_for} gültig; er macht die Änderung auch rückgängig, wenn sie schon bestätigt wurde. Wählen Sie danach mit «Passwort vergessen» ein neues Passwort. Falls Sie es waren, ignorieren Sie diese E-Mail.',
      ],
    },
  },
  'contact-consent': {
    'en-gb': {
      subject: 'Do you agree to manage {organization_name}?',
      greeting: 'Hello {first_name},',
      body: [
        'Someone applied to register {organization_name} on Road Trip and named this address as its contact. Your account becomes its manager only if you agree.',
      ],
      action: 'I agree to manage it',
      footer: [
        'The link is valid for {valid_for}. If you do not know this organization, ignore this email: nothing changes for your account.',
      ],
    },
    'fr-ch': {
      subject: 'Acceptez-vous de gérer {organization_name} ?',
      greeting: 'Bonjour {first_name},',
      body: [
        "Une demande d'inscription de {organization_name} sur Road Trip nomme cette adresse comme contact. Votre compte n'en devient responsable que si vous l'acceptez.",
      ],
      action: "J'accepte de la gérer",
      footer: [
        'Le lien est valable {valid_for}. Si vous ne connaissez pas cette organisation, ignorez cet e-mail : rien ne change pour votre compte.',
      ],
    },
    'ge-ch': {
      subject: 'Möchten Sie {organization_name} verwalten?',
      greeting: 'Grüezi {first_name},',
      body: [
        'Jemand hat {organization_name} bei Road Trip angemeldet und diese Adresse als Kontakt angegeben. Ihr Konto verwaltet die Organisation nur, wenn Sie zustimmen.',
      ],
      action: 'Ich bin einverstanden',
      footer: [
        'Der Link ist {valid_for} gültig. Falls Sie diese Organisation nicht kennen, ignorieren Sie diese E-Mail: Für Ihr Konto ändert sich nichts.',
      ],
    },
  },
};

/** How long a link stays valid, in words of the language. */
export function durationInWords(
  language: PreferredLanguage,
  amount: number,
  unit: 'minutes' | 'hours' | 'days',
): string {
  const words: Record<PreferredLanguage, Record<'minutes' | 'hours' | 'days', [string, string]>> = {
    'en-gb': { minutes: ['minute', 'minutes'], hours: ['hour', 'hours'], days: ['day', 'days'] },
    'fr-ch': { minutes: ['minute', 'minutes'], hours: ['heure', 'heures'], days: ['jour', 'jours'] },
    'ge-ch': { minutes: ['Minute', 'Minuten'], hours: ['Stunde', 'Stunden'], days: ['Tag', 'Tage'] },
  };
  const [one, many] = words[language][unit];
  const phrase = `${amount} ${amount === 1 ? one : many}`;
  if (language === 'fr-ch') return `pendant ${phrase}`;
  if (language === 'ge-ch') return `${phrase} lang`;
  return phrase;
}
