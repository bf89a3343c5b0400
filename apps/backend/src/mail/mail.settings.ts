import { IsUrl, MinLength } from 'class-validator';
import { BooleanSetting, IntSetting, StringSetting } from '@rt/platform';

/** The emails: their transport, the outbox worker, and the client app their links open. */
export class MailSettings {
  /**
   * Public URL of the client app; email links point at its pages: `/reset-password` and
   * `/accept-invitation` (each with `?token=…&email=…`), `/confirm-email` and
   * `/report-email-change` (each with `?token=…`), and `/` (sign in).
   */
  @StringSetting()
  @IsUrl({ require_tld: false, require_protocol: true, protocols: ['http', 'https'] })
  CLIENT_APP_URL: string = 'http://localhost:5173';

  /** SMTP server of deployments (`smtp://user:pass@host:587`, `smtps://…`); unset: the local transport. */
  @StringSetting()
  @IsUrl({ require_tld: false, require_protocol: true, protocols: ['smtp', 'smtps'] })
  SMTP_URL?: string;

  /** Sender of every email (`Name <address>` or an address). */
  @StringSetting()
  @MinLength(3)
  MAIL_FROM: string = 'Road Trip <no-reply@localhost>';

  /** Where the local transport writes each message as an `.eml` file (default: `mail` beside DATA_DIR). */
  @StringSetting()
  MAIL_DIR?: string;

  /** Whether this process runs the outbox worker (any number of replicas may). */
  @BooleanSetting()
  MAIL_WORKER_ENABLED: boolean = true;

  /** How often the worker looks for due messages, in milliseconds. */
  @IntSetting({ min: 50 })
  MAIL_POLL_INTERVAL_MS: number = 2000;

  /** Delivery attempts of a message before it is marked `failed`. */
  @IntSetting({ min: 1, max: 100 })
  MAIL_MAX_ATTEMPTS: number = 8;

  /** Wait before the second attempt; doubled after each failure (capped at 6 hours). */
  @IntSetting({ min: 1 })
  MAIL_RETRY_BASE_SECONDS: number = 30;

  /**
   * How long a claimed message stays reserved for the worker delivering it; longer than an SMTP
   * exchange can last (the transport's own timeouts are kept below it).
   */
  @IntSetting({ min: 10 })
  MAIL_LEASE_SECONDS: number = 120;

  /** Messages a worker claims at once. */
  @IntSetting({ min: 1, max: 500 })
  MAIL_BATCH_SIZE: number = 20;

  /**
   * The local transport's folder: MAIL_DIR, default `mail` beside the embedded database (derived at
   * start-up by loadBackendConfig, src/config.ts).
   */
  declare readonly mailDir: string;
}
