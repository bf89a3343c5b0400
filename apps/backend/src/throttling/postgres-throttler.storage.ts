import { Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import type { ThrottlerLimitDetail, ThrottlerStorage } from '@nestjs/throttler';
import { ThrottleCountersRepository } from './throttle-counters.repository';

/** ThrottlerStorageRecord, which the package does not export by name. */
type StorageRecord = Pick<
  ThrottlerLimitDetail,
  'totalHits' | 'timeToExpire' | 'isBlocked' | 'timeToBlockExpire'
>;

const SWEEP_INTERVAL_MS = 10 * 60 * 1000;

/**
 * `@nestjs/throttler` storage whose counters live in PostgreSQL (table `throttle_counters`), so
 * every replica sees the same counts; the service has no other store. Ended counters are swept
 * every ten minutes.
 */
@Injectable()
export class PostgresThrottlerStorage implements ThrottlerStorage, OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('Throttling');
  private sweeper?: NodeJS.Timeout;

  constructor(private readonly counters: ThrottleCountersRepository) {}

  /** `ttl` and `blockDuration` in milliseconds (throttler v6); the times returned are in seconds. */
  async increment(key: string, ttl: number, limit: number, blockDuration: number): Promise<StorageRecord> {
    const state = await this.counters.hit(key, ttl, limit, Math.max(blockDuration, 1000));
    return {
      totalHits: state.hits,
      timeToExpire: Math.ceil(state.expiresInMs / 1000),
      isBlocked: state.blockedForMs > 0,
      timeToBlockExpire: Math.ceil(state.blockedForMs / 1000),
    };
  }

  onApplicationBootstrap(): void {
    this.sweeper = setInterval(() => void this.sweep(), SWEEP_INTERVAL_MS);
    this.sweeper.unref();
  }

  onModuleDestroy(): void {
    clearInterval(this.sweeper);
  }

  async sweep(): Promise<void> {
    try {
      await this.counters.deleteExpired();
    } catch (error) {
      this.logger.warn(`Could not sweep ended throttle counters: ${String(error)}`);
    }
  }
}
