import { minLength } from 'class-validator';
import { join, resolve } from 'node:path';
import { defaultDataDir } from '@rt/database';
import { BaseEnv, ConfigError, loadSections, type SectionsOf } from '@rt/platform';
import { AccessTokenSettings } from './access-tokens/access-token.settings';
import { ContractSettings } from './contract/contract.settings';
import { HttpSettings } from './http.settings';
import { ImageSettings } from './images/image.settings';
import { MailSettings } from './mail/mail.settings';
import { PasswordLinkSettings } from './password-reset/password-link.settings';
import { PasswordSettings } from './passwords/password.settings';
import { ThrottleSettings } from './throttling/throttle.settings';
import { AdminSettings } from './users/admin.settings';

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
] as const;

/** Every section's variables side by side, and the values derived from them (mailDir, imageDir: their sections'). */
export type BackendConfig = SectionsOf<typeof BACKEND_SECTIONS> & {
  port: number;
  migrateOnStart: boolean;
  /** The embedded database's folder: DATA_DIR, default `.data/backend` at the repository root. */
  dataDir: string;
};

export function loadBackendConfig(env: Record<string, string | undefined> = process.env): BackendConfig {
  // The rules across sections are named in the same ConfigError as every section's problems.
  const acrossSections = deploymentProblems(env);
  let config: SectionsOf<typeof BACKEND_SECTIONS>;
  try {
    config = loadSections(BACKEND_SECTIONS, env);
  } catch (error) {
    if (error instanceof ConfigError) throw new ConfigError([...error.problems, ...acrossSections]);
    throw error;
  }
  if (acrossSections.length > 0) throw new ConfigError(acrossSections);
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

/**
 * What a deployment must set, a rule across sections: outside the local environment (APP_ENV,
 * BaseEnv's), the contract's access token (ContractSettings; at least 32 characters) and the
 * imgproxy pair (ImageSettings, which judges their form when they are set). A section's rules see
 * only its own variables, so this reads the environment itself (an empty value is unset there too).
 */
function deploymentProblems(env: Record<string, string | undefined>): string[] {
  if ((env.APP_ENV || 'local') === 'local') return [];
  const problems: string[] = [];
  const tokenLength = 'CONTRACT_ACCESS_TOKEN must be longer than or equal to 32 characters';
  const token = env.CONTRACT_ACCESS_TOKEN;
  if (!token) {
    problems.push(
      `CONTRACT_ACCESS_TOKEN (not set): CONTRACT_ACCESS_TOKEN is required outside the local environment; ${tokenLength}`,
    );
  } else if (!minLength(token, 32)) {
    problems.push(`CONTRACT_ACCESS_TOKEN: ${tokenLength}`);
  }
  for (const name of ['IMGPROXY_KEY', 'IMGPROXY_SALT']) {
    if (!env[name]) {
      problems.push(
        `${name} (not set): ${name} must be hex-encoded (required outside the local environment); ` +
          `${name} must be longer than or equal to 32 characters`,
      );
    }
  }
  return problems;
}

/** The whole configuration, for what truly needs it; a feature is injected its own section instead. */
export const BACKEND_CONFIG = Symbol('BACKEND_CONFIG');
