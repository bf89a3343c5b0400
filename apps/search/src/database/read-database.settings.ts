import { FloatSetting, StringSetting } from '@rt/platform';

/** The database listings and searches read from (ReplicaLag; app.module.ts), validated at start-up. */
export class ReadDatabaseSettings {
  /**
   * A PostgreSQL that listings and searches read from: a streaming replica of DATABASE_URL's
   * server (apps/search/README.md, "Read replicas"). Unset: DATABASE_URL. The reindex, its lock,
   * migrations and every write stay on DATABASE_URL; the embedded database has no replica.
   */
  @StringSetting({ maxLength: 2000 })
  DATABASE_READ_URL?: string;

  /**
   * `/health/ready` fails while the read database replays the primary's changes more than this many
   * seconds late (`database_replica_lag_seconds`).
   */
  @FloatSetting({ min: 0, max: 86_400 })
  DATABASE_READ_MAX_LAG_SECONDS: number = 30;
}
