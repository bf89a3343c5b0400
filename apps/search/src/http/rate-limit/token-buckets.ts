import { LRUCache } from 'lru-cache';

/** What a bucket answers: taken, or refused with the seconds until a token is back. */
export type TokenAnswer = { taken: true } | { taken: false; retryAfterSeconds: number };

/**
 * Token buckets by key (a client address), in memory: each holds up to `capacity` tokens, refilled
 * at `refillPerSecond`, a request takes one. The keys are an LRU of at most `maxKeys`: an address
 * forgotten (the least recently seen, when more than `maxKeys` send at once) starts again with a
 * full bucket, which errs towards letting a client through, never towards refusing it.
 */
export class TokenBuckets {
  private readonly buckets: LRUCache<string, { tokens: number; at: number }>;

  constructor(
    readonly capacity: number,
    readonly refillPerSecond: number,
    private readonly now: () => number = () => performance.now(),
    maxKeys = 100_000,
  ) {
    this.buckets = new LRUCache({ max: maxKeys });
  }

  take(key: string): TokenAnswer {
    const now = this.now();
    const bucket = this.buckets.get(key) ?? { tokens: this.capacity, at: now };
    const tokens = Math.min(this.capacity, bucket.tokens + ((now - bucket.at) / 1000) * this.refillPerSecond);
    if (tokens >= 1) {
      this.buckets.set(key, { tokens: tokens - 1, at: now });
      return { taken: true };
    }
    this.buckets.set(key, { tokens, at: now });
    return { taken: false, retryAfterSeconds: (1 - tokens) / this.refillPerSecond };
  }

  /** How many keys are held. */
  get size(): number {
    return this.buckets.size;
  }
}
