import { TokenBuckets } from './token-buckets';

describe('TokenBuckets', () => {
  it('lets a burst of `capacity` through, then refuses with the seconds until the next token', () => {
    let now = 0;
    const buckets = new TokenBuckets(3, 2, () => now);
    expect([1, 2, 3].map(() => buckets.take('a').taken)).toEqual([true, true, true]);
    expect(buckets.take('a')).toEqual({ taken: false, retryAfterSeconds: 0.5 });
    // another key has its own bucket
    expect(buckets.take('b').taken).toBe(true);
    now += 250;
    expect(buckets.take('a')).toEqual({ taken: false, retryAfterSeconds: 0.25 });
    now += 250;
    expect(buckets.take('a').taken).toBe(true);
    expect(buckets.take('a').taken).toBe(false);
    // refilled at most to the capacity
    now += 60_000;
    expect([1, 2, 3, 4].map(() => buckets.take('a').taken)).toEqual([true, true, true, false]);
  });

  it('forgets the least recently seen keys past maxKeys, which start again full', () => {
    const buckets = new TokenBuckets(1, 0.01, () => 0, 2);
    expect(buckets.take('a').taken).toBe(true);
    expect(buckets.take('a').taken).toBe(false);
    buckets.take('b');
    buckets.take('c');
    expect(buckets.size).toBe(2);
    expect(buckets.take('a').taken).toBe(true);
  });
});
