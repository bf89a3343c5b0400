import { Inject, Injectable } from '@nestjs/common';
import { MetricsService } from '@rt/platform';
import { Gauge } from 'prom-client';
import { DataSource } from 'typeorm';
import { SEARCH_READER } from './database-runtime';
import { ReadDatabaseSettings } from './read-database.settings';

/**
 * How far the read database is behind the primary, in seconds: 0 on the primary itself and on a
 * standby that has replayed everything it received (an idle primary sends nothing, and the time of
 * the last replayed transaction would otherwise grow forever); else the age of the last replayed
 * transaction. That age overstates the lag when the primary was idle before the changes still to
 * replay (it counts from the last one replayed), which errs on the safe side for readiness. null:
 * unknown (a standby replaying that has not replayed a transaction since it started).
 */
export const REPLICA_LAG_SQL = `
  SELECT CASE
    WHEN NOT pg_is_in_recovery() THEN 0
    WHEN pg_last_wal_receive_lsn() = pg_last_wal_replay_lsn() THEN 0
    ELSE GREATEST(0, EXTRACT(EPOCH FROM now() - pg_last_xact_replay_timestamp()))
  END::float8 AS lag_seconds`;

export type ReplicaLagVerdict = { ok: true; lagSeconds: number } | { ok: false; reason: string };

/**
 * The read database's replication lag, measured when Prometheus scrapes (`database_replica_lag_seconds`)
 * and when readiness is probed, never per search. Without a read pool of its own the service reads
 * the primary: the lag is 0 and nothing is queried.
 */
@Injectable()
export class ReplicaLag {
  constructor(
    @Inject(SEARCH_READER) private readonly reader: DataSource,
    private readonly primary: DataSource,
    private readonly settings: ReadDatabaseSettings,
    metrics: MetricsService,
  ) {
    const measure = () => this.seconds().catch(() => null);
    new Gauge({
      name: 'database_replica_lag_seconds',
      help: 'How far the read database (DATABASE_READ_URL) replays behind the primary, in seconds; 0 on the primary or when caught up, NaN when unknown or unreachable.',
      registers: [metrics.registry],
      async collect() {
        this.set((await measure()) ?? Number.NaN);
      },
    });
  }

  /** The lag in seconds; null when a standby cannot tell yet. Throws when the read database cannot be reached. */
  async seconds(): Promise<number | null> {
    if (this.reader === this.primary) return 0;
    const [row] = (await this.reader.query(REPLICA_LAG_SQL)) as { lag_seconds: number | null }[];
    return row?.lag_seconds ?? null;
  }

  /** Readiness: within DATABASE_READ_MAX_LAG_SECONDS. */
  async verdict(): Promise<ReplicaLagVerdict> {
    let lag: number | null;
    try {
      lag = await this.seconds();
    } catch {
      return { ok: false, reason: 'the read database cannot be reached' };
    }
    const bound = this.settings.DATABASE_READ_MAX_LAG_SECONDS;
    if (lag === null) return { ok: false, reason: 'the read replica has not replayed a transaction yet' };
    if (lag > bound) {
      return {
        ok: false,
        reason: `the read replica is ${lag.toFixed(1)} s behind the primary (DATABASE_READ_MAX_LAG_SECONDS ${bound})`,
      };
    }
    return { ok: true, lagSeconds: lag };
  }
}
