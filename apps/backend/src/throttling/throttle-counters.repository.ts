import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { TransactionalRepository } from '../database/transactions';
import { ThrottleCounter } from './throttle-counter.entity';

export interface CounterState {
  hits: number;
  /** Milliseconds left in the current window. */
  expiresInMs: number;
  /** Milliseconds left of a block; 0 when not blocked. */
  blockedForMs: number;
}

interface CounterRow {
  hits: number;
  expires_in_ms: string;
  blocked_for_ms: string;
}

/**
 * The one writer of `throttle_counters`. Counts must survive the request's failure, so services
 * count outside any `Transactions.run`.
 */
@Injectable()
export class ThrottleCountersRepository extends TransactionalRepository<ThrottleCounter> {
  constructor(@InjectRepository(ThrottleCounter) plain: Repository<ThrottleCounter>) {
    super(plain);
  }

  /**
   * Counts one hit on `key` in one atomic statement (INSERT … ON CONFLICT DO UPDATE on the
   * primary key), so concurrent requests on any replica never lose a hit. Times come from the
   * database clock, which every replica shares. Rules, in order:
   * - blocked and the block still runs: nothing changes (hits during a block do not count);
   * - a block that has ended, or a window that has ended: a fresh window starting with this hit;
   * - otherwise one more hit; more than `limit` hits in the window block the key for `blockMs`.
   */
  async hit(key: string, windowMs: number, limit: number, blockMs: number): Promise<CounterState> {
    const rows: CounterRow[] = await this.repo.query(
      `INSERT INTO throttle_counters AS c (key, hits, expires_at, blocked_until)
       VALUES ($1, 1, now() + $2::double precision * interval '1 millisecond',
               CASE WHEN 1 > $3::integer THEN now() + $4::double precision * interval '1 millisecond' END)
       ON CONFLICT (key) DO UPDATE SET
         hits = CASE
           WHEN c.blocked_until > now() THEN c.hits
           WHEN c.blocked_until IS NOT NULL OR c.expires_at <= now() THEN 1
           ELSE c.hits + 1 END,
         expires_at = CASE
           WHEN c.blocked_until > now() THEN c.expires_at
           WHEN c.blocked_until IS NOT NULL OR c.expires_at <= now() THEN EXCLUDED.expires_at
           ELSE c.expires_at END,
         blocked_until = CASE
           WHEN c.blocked_until > now() THEN c.blocked_until
           WHEN c.blocked_until IS NOT NULL OR c.expires_at <= now() THEN EXCLUDED.blocked_until
           WHEN c.hits + 1 > $3::integer THEN now() + $4::double precision * interval '1 millisecond'
           ELSE NULL END
       RETURNING hits,
         GREATEST(0, ceil(extract(epoch FROM expires_at - now()) * 1000))::bigint AS expires_in_ms,
         CASE WHEN blocked_until > now()
           THEN ceil(extract(epoch FROM blocked_until - now()) * 1000)::bigint ELSE 0 END AS blocked_for_ms`,
      [key, windowMs, limit, blockMs],
    );
    return toState(rows[0]);
  }

  /**
   * The live counters among `keys` (window or block still running), by key; absent keys have no
   * hits. A plain read on the primary key: it writes nothing and waits for no lock, so a correct
   * sign-in never queues behind the failures being counted.
   */
  async statesOf(keys: string[]): Promise<Map<string, CounterState>> {
    const rows: (CounterRow & { key: string })[] = await this.repo.query(
      `SELECT key, hits,
         GREATEST(0, ceil(extract(epoch FROM expires_at - now()) * 1000))::bigint AS expires_in_ms,
         CASE WHEN blocked_until > now()
           THEN ceil(extract(epoch FROM blocked_until - now()) * 1000)::bigint ELSE 0 END AS blocked_for_ms
       FROM throttle_counters
       WHERE key = ANY($1::varchar[]) AND (expires_at > now() OR blocked_until > now())`,
      [keys],
    );
    return new Map(rows.map((row) => [row.key, toState(row)]));
  }

  /** Deletes a counter, unless it is blocked: a block, once started, runs to its end. */
  async clearUnlessBlocked(key: string): Promise<void> {
    await this.repo
      .createQueryBuilder()
      .delete()
      .where('key = :key', { key })
      .andWhere('(blocked_until IS NULL OR blocked_until <= now())')
      .execute();
  }

  /** Removes counters whose window and block have both ended (uses throttle_counters_expires_at_idx). */
  async deleteExpired(): Promise<number> {
    const result = await this.repo
      .createQueryBuilder()
      .delete()
      .where('expires_at < now()')
      .andWhere('(blocked_until IS NULL OR blocked_until < now())')
      .execute();
    return result.affected ?? 0;
  }
}

const toState = (row: CounterRow): CounterState => ({
  hits: row.hits,
  expiresInMs: Number(row.expires_in_ms),
  blockedForMs: Number(row.blocked_for_ms),
});
