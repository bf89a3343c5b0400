import {
  IsArray,
  IsEmail,
  IsInt,
  IsOptional,
  IsString,
  IsUrl,
  Max,
  MaxLength,
  Min,
  MinLength,
  ValidateIf,
} from 'class-validator';
import { BaseEnv, ConfigError, EnvInt, EnvList, loadConfig } from '@rt/platform';

/** Every variable the backend reads, validated at start-up. */
export class BackendEnv extends BaseEnv {
  /** Origins allowed to call the API from a browser, comma-separated. */
  @EnvList()
  @IsOptional()
  @IsArray()
  @IsString({ each: true })
  CORS_ORIGINS: string[] = [];

  /** Static developer token that guards `GET /contract` outside the local environment. */
  @ValidateIf((env: BackendEnv) => env.APP_ENV !== 'local')
  @IsString({ message: 'CONTRACT_ACCESS_TOKEN is required outside the local environment' })
  @MinLength(32)
  CONTRACT_ACCESS_TOKEN?: string;

  /** A sign-in token unused for this many days stops working (decisions.md: default 30). */
  @EnvInt()
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(3650)
  TOKEN_IDLE_DAYS: number = 30;

  /**
   * scrypt cost of new password hashes (see src/passwords/password-hash.ts): N (a power of two),
   * r and p. The defaults are OWASP's "N=2^15, r=8, p=3" (32 MiB per hash). Hashes keep their own
   * parameters, so changing these never invalidates stored passwords; they are rehashed at login.
   */
  @EnvInt()
  @IsOptional()
  @IsInt()
  @Min(1024)
  @Max(1048576)
  PASSWORD_SCRYPT_N: number = 32768;

  @EnvInt()
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(32)
  PASSWORD_SCRYPT_R: number = 8;

  @EnvInt()
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(16)
  PASSWORD_SCRYPT_P: number = 3;

  /** Lifetime of a password reset token sent by `POST /forgot-password`. */
  @EnvInt()
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(10080)
  PASSWORD_RESET_TTL_MINUTES: number = 60;

  /** Lifetime of the token that lets an invited manager set a first password. */
  @EnvInt()
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(90)
  INVITATION_TTL_DAYS: number = 7;

  /** The page of the office app that sets a new password; the link gets `?token=…&email=…`. */
  @IsOptional()
  @IsUrl({ require_tld: false, require_protocol: true, protocols: ['http', 'https'] })
  PASSWORD_RESET_URL: string = 'http://localhost:5173/reset-password';

  /** Failed logins allowed per email and client address within the window, then 429. */
  @EnvInt()
  @IsOptional()
  @IsInt()
  @Min(1)
  THROTTLE_LOGIN_LIMIT: number = 5;

  /** The window of login failures, and how long a blocked email and address (or address) waits. */
  @EnvInt()
  @IsOptional()
  @IsInt()
  @Min(1)
  THROTTLE_LOGIN_WINDOW_SECONDS: number = 300;

  /**
   * Failed logins allowed per client address, whatever the email, within the login window, then
   * 429 for every login from that address; larger than the per-email limit, as many users may
   * share one address (an office behind NAT).
   */
  @EnvInt()
  @IsOptional()
  @IsInt()
  @Min(1)
  THROTTLE_LOGIN_ADDRESS_LIMIT: number = 50;

  /**
   * Calls of `POST /forgot-password` (and, counted apart, of `POST /reset-password`) allowed per
   * email and client address within the window, then 429.
   */
  @EnvInt()
  @IsOptional()
  @IsInt()
  @Min(1)
  THROTTLE_PASSWORD_LIMIT: number = 5;

  /** Calls of each of those routes allowed per client address, whatever the email, within the window. */
  @EnvInt()
  @IsOptional()
  @IsInt()
  @Min(1)
  THROTTLE_PASSWORD_ADDRESS_LIMIT: number = 20;

  /** The window of those calls, and how long a blocked email and address (or address) waits. */
  @EnvInt()
  @IsOptional()
  @IsInt()
  @Min(1)
  THROTTLE_PASSWORD_WINDOW_SECONDS: number = 3600;

  /** Super-admin seeded in the embedded demo run (and the default of `user:create-admin`). */
  @IsOptional()
  @IsEmail()
  @MaxLength(255)
  ADMIN_EMAIL?: string;

  /** Its password; generated and printed once when unset. */
  @IsOptional()
  @IsString()
  @MinLength(12)
  @MaxLength(128)
  ADMIN_PASSWORD?: string;
}

export type BackendConfig = BackendEnv & {
  port: number;
  migrateOnStart: boolean;
};

export function loadBackendConfig(env: Record<string, string | undefined> = process.env): BackendConfig {
  const config = loadConfig(BackendEnv, env);
  const n = config.PASSWORD_SCRYPT_N;
  if ((n & (n - 1)) !== 0) throw new ConfigError([`PASSWORD_SCRYPT_N: must be a power of two (got ${n})`]);
  return Object.assign(config, {
    port: config.PORT ?? 3000,
    migrateOnStart: config.DB_MIGRATE_ON_START ?? config.APP_ENV === 'local',
  });
}

export const BACKEND_CONFIG = Symbol('BACKEND_CONFIG');
