import {
  IsArray,
  IsBoolean,
  IsEmail,
  IsHexadecimal,
  IsIn,
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
import { join, resolve } from 'node:path';
import { defaultDataDir } from '@rt/database';
import { BaseEnv, ConfigError, EnvBoolean, EnvInt, EnvList, loadConfig } from '@rt/platform';

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

  /** A sign-in token unused for this many days stops working (docs/decisions.md D-20: default 30). */
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

  /**
   * Public URL of the client app; email links point at its pages: `/reset-password` and
   * `/accept-invitation` (each with `?token=…&email=…`) and `/` (sign in).
   */
  @IsOptional()
  @IsUrl({ require_tld: false, require_protocol: true, protocols: ['http', 'https'] })
  CLIENT_APP_URL: string = 'http://localhost:5173';

  /** SMTP server of deployments (`smtp://user:pass@host:587`, `smtps://…`); unset: the local transport. */
  @IsOptional()
  @IsUrl({ require_tld: false, require_protocol: true, protocols: ['smtp', 'smtps'] })
  SMTP_URL?: string;

  /** Sender of every email (`Name <address>` or an address). */
  @IsOptional()
  @IsString()
  @MinLength(3)
  MAIL_FROM: string = 'Road Trip <no-reply@localhost>';

  /** Where the local transport writes each message as an `.eml` file (default: `mail` beside DATA_DIR). */
  @IsOptional()
  @IsString()
  MAIL_DIR?: string;

  /** Whether this process runs the outbox worker (any number of replicas may). */
  @EnvBoolean()
  @IsOptional()
  @IsBoolean()
  MAIL_WORKER_ENABLED: boolean = true;

  /** How often the worker looks for due messages, in milliseconds. */
  @EnvInt()
  @IsOptional()
  @IsInt()
  @Min(50)
  MAIL_POLL_INTERVAL_MS: number = 2000;

  /** Delivery attempts of a message before it is marked `failed`. */
  @EnvInt()
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(100)
  MAIL_MAX_ATTEMPTS: number = 8;

  /** Wait before the second attempt; doubled after each failure (capped at 6 hours). */
  @EnvInt()
  @IsOptional()
  @IsInt()
  @Min(1)
  MAIL_RETRY_BASE_SECONDS: number = 30;

  /**
   * How long a claimed message stays reserved for the worker delivering it; longer than an SMTP
   * exchange can last (the transport's own timeouts are kept below it).
   */
  @EnvInt()
  @IsOptional()
  @IsInt()
  @Min(10)
  MAIL_LEASE_SECONDS: number = 120;

  /** Messages a worker claims at once. */
  @EnvInt()
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(500)
  MAIL_BATCH_SIZE: number = 20;

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

  /**
   * imgproxy's signing key and salt, hex-encoded as imgproxy takes them (`IMGPROXY_KEY`,
   * `IMGPROXY_SALT`), so an imgproxy given the same pair and source serves the same URLs. Required
   * outside the local environment (every replica must sign alike); a local run without them draws
   * a pair once and keeps it in `keys/imgproxy.json` beside the embedded database (mode 0600;
   * images/local-signing-keys.ts), so image URLs outlive a restart.
   */
  @ValidateIf((env: BackendEnv) => env.APP_ENV !== 'local' || env.IMGPROXY_KEY !== undefined)
  @IsHexadecimal({ message: 'IMGPROXY_KEY must be hex-encoded (required outside the local environment)' })
  @MinLength(32)
  IMGPROXY_KEY?: string;

  @ValidateIf((env: BackendEnv) => env.APP_ENV !== 'local' || env.IMGPROXY_SALT !== undefined)
  @IsHexadecimal({ message: 'IMGPROXY_SALT must be hex-encoded (required outside the local environment)' })
  @MinLength(32)
  IMGPROXY_SALT?: string;

  /** Where originals and variants live: `local` (a directory) or `s3` (an S3-compatible store). */
  @IsOptional()
  @IsIn(['local', 's3'])
  IMAGE_STORAGE: 'local' | 's3' = 'local';

  /** The directory of the `local` storage (default: `images` beside DATA_DIR). */
  @IsOptional()
  @IsString()
  IMAGE_DIR?: string;

  @ValidateIf((env: BackendEnv) => env.IMAGE_STORAGE === 's3')
  @IsString({ message: 'S3_BUCKET is required when IMAGE_STORAGE=s3' })
  @MinLength(3)
  S3_BUCKET?: string;

  /** An S3-compatible endpoint (MinIO, Ceph, …); unset: AWS itself. */
  @IsOptional()
  @IsUrl({ require_tld: false, require_protocol: true, protocols: ['http', 'https'] })
  S3_ENDPOINT?: string;

  @IsOptional()
  @IsString()
  S3_REGION: string = 'us-east-1';

  /** Static credentials; unset: the SDK's default chain (instance role, web identity, …). */
  @IsOptional()
  @IsString()
  S3_ACCESS_KEY_ID?: string;

  @IsOptional()
  @IsString()
  S3_SECRET_ACCESS_KEY?: string;

  /** Path-style addressing (`endpoint/bucket/key`), which most S3-compatible servers need. */
  @EnvBoolean()
  @IsOptional()
  @IsBoolean()
  S3_FORCE_PATH_STYLE: boolean = false;

  /** Largest pixel count (width × height) of an upload, read from its header before decoding. */
  @EnvInt()
  @IsOptional()
  @IsInt()
  @Min(1)
  IMAGE_MAX_PIXELS: number = 50_000_000;

  /** Variants resized at once by this process (each uses sharp's thread pool). */
  @EnvInt()
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(64)
  IMAGE_RESIZE_CONCURRENCY: number = 2;

  /** `POST /organizations/signup` calls allowed per client address within the window, then 429. */
  @EnvInt()
  @IsOptional()
  @IsInt()
  @Min(1)
  THROTTLE_SIGNUP_LIMIT: number = 5;

  /** The window of signups, and how long a blocked address waits. */
  @EnvInt()
  @IsOptional()
  @IsInt()
  @Min(1)
  THROTTLE_SIGNUP_WINDOW_SECONDS: number = 3600;

  /** Refused `POST /activation-codes/claim` calls allowed per user within the window, then 429. */
  @EnvInt()
  @IsOptional()
  @IsInt()
  @Min(1)
  THROTTLE_CLAIM_LIMIT: number = 10;

  /** Refused claims allowed per client address, whatever the user, within the window. */
  @EnvInt()
  @IsOptional()
  @IsInt()
  @Min(1)
  THROTTLE_CLAIM_ADDRESS_LIMIT: number = 100;

  /** The window of claims, and how long a blocked user (or address) waits. */
  @EnvInt()
  @IsOptional()
  @IsInt()
  @Min(1)
  THROTTLE_CLAIM_WINDOW_SECONDS: number = 3600;

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
  /** The embedded database's folder: DATA_DIR, default `.data/backend` at the repository root. */
  dataDir: string;
  /** The local mail transport's folder: MAIL_DIR, default `mail` beside the embedded database. */
  mailDir: string;
  /** The `local` image storage's folder: IMAGE_DIR, default `images` beside the embedded database. */
  imageDir: string;
};

export function loadBackendConfig(env: Record<string, string | undefined> = process.env): BackendConfig {
  const config = loadConfig(BackendEnv, env);
  const n = config.PASSWORD_SCRYPT_N;
  if ((n & (n - 1)) !== 0) throw new ConfigError([`PASSWORD_SCRYPT_N: must be a power of two (got ${n})`]);
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

export const BACKEND_CONFIG = Symbol('BACKEND_CONFIG');
