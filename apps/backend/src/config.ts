import { join, resolve } from 'node:path';
import { defaultDataDir } from '@rt/database';
import { BaseEnv, loadSections, type SectionsOf } from '@rt/platform';
import { AccessTokenSettings } from './access-tokens/access-token.settings';
import { ContractSettings } from './contract/contract.settings';
import { HttpSettings } from './http.settings';
import { ImageSettings } from './images/image.settings';
import { MailSettings } from './mail/mail.settings';
import { ContactConsentSettings } from './organizations/contact-consent.settings';
import { PasswordLinkSettings } from './password-reset/password-link.settings';
import { PasswordSettings } from './passwords/password.settings';
import { ThrottleSettings } from './throttling/throttle.settings';
import { AdminSettings } from './users/admin.settings';
import { EmailChangeSettings } from './users/email-change.settings';

/**
 * Every variable the backend reads, validated at start-up: BaseEnv's (every service's), then a
 * section per feature, each a class beside the feature that reads it. A feature is injected its
 * section (the class is the token; app.module.ts), and sees only its variables; start-up code
 * (main.ts, the commands, the migrations' data source) reads the whole BackendConfig.
 */
export const BACKEND_SECTIONS = [
  BaseEnv,
  HttpSettings,
  ContractSettings,
  AccessTokenSettings,
  PasswordSettings,
  PasswordLinkSettings,
  MailSettings,
  ThrottleSettings,
  ImageSettings,
  AdminSettings,
  EmailChangeSettings,
  ContactConsentSettings,
] as const;

/** Every section's variables side by side, and the values derived from them (mailDir, imageDir: their sections'). */
export type BackendConfig = SectionsOf<typeof BACKEND_SECTIONS> & {
  port: number;
  migrateOnStart: boolean;
  /** The embedded database's folder: DATA_DIR, default `.data/backend` at the repository root. */
  dataDir: string;
};

export function loadBackendConfig(env: Record<string, string | undefined> = process.env): BackendConfig {
  const config = loadSections(BACKEND_SECTIONS, env);
  // What a local run writes stays together: `DATA_DIR=X pnpm start` keeps X/backend, X/mail and
  // X/images (scripts/start-all.mjs gives each service DATA_DIR=X/<service>).
  const dataDir = resolve(config.DATA_DIR ?? defaultDataDir('backend'));
  return Object.assign(config, {
    port: config.PORT ?? 3000,
    migrateOnStart: config.DB_MIGRATE_ON_START ?? config.APP_ENV === 'local',
    dataDir,
    mailDir: resolve(config.MAIL_DIR ?? join(dataDir, '..', 'mail')),
    imageDir: resolve(config.IMAGE_DIR ?? join(dataDir, '..', 'images')),
  });
}

/** The whole configuration, for what truly needs it; a feature is injected its own section instead. */
export const BACKEND_CONFIG = Symbol('BACKEND_CONFIG');
