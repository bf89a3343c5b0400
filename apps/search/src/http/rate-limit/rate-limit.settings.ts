import { BooleanSetting, FloatSetting, IntSetting } from '@rt/platform';

/**
 * The flood limit of GET /travels (RateLimitGuard; docs/decisions.md D-73): a token bucket per
 * client address in each replica's memory, validated at start-up.
 */
export class RateLimitSettings {
  /**
   * Whether GET /travels is limited per client address. Unset: on, but off when APP_ENV is
   * `local` (local runs, tests and `pnpm load`, which sends 16 connections from one address).
   */
  @BooleanSetting()
  SEARCH_RATE_LIMIT?: boolean;

  /**
   * The bucket: how many requests one address may send at once before it is refused. 30 covers
   * search-as-you-type (a request per key typed, about 5–8 a second for a fast typist, over a
   * search of 20–30 characters) and a page of a client opening with a few listings.
   */
  @IntSetting({ min: 1, max: 100_000 })
  SEARCH_RATE_LIMIT_BURST: number = 30;

  /**
   * How many requests a second refill an address's bucket: its sustained rate. 10 a second is more
   * than a person types or pages, and 600 a minute per address, per replica.
   */
  @FloatSetting({ min: 0.01, max: 100_000 })
  SEARCH_RATE_LIMIT_PER_SECOND: number = 10;

  // Derived by loadSearchConfig (config.ts), not read from the environment:

  /** SEARCH_RATE_LIMIT with its default applied. */
  rateLimitEnabled!: boolean;
}
