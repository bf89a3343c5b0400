import { Injectable, Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { AppError } from '@rt/errors';
import { CounterState, ThrottleCountersRepository } from './throttle-counters.repository';
import {
  signupContactMailCounter,
  throttleCounters,
  ThrottleCounters,
  ThrottlePolicy,
} from './throttle-policies';
import { ThrottleSettings } from './throttle.settings';

const SWEEP_INTERVAL_MS = 10 * 60 * 1000;

/**
 * The counters of the throttle policies (src/throttling/throttle-policies.ts), in PostgreSQL so
 * every replica shares them. Every refusal is 429 `too_many_requests` with `Retry-After`.
 * Ended counters are swept every ten minutes.
 */
@Injectable()
export class ThrottlingService implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('Throttling');
  private sweeper?: NodeJS.Timeout;

  constructor(
    private readonly counters: ThrottleCountersRepository,
    private readonly settings: ThrottleSettings,
  ) {}

  /** Refuses when the email and address, or the address, is blocked; counts nothing. */
  async refuseIfBlocked(policy: ThrottlePolicy, email: unknown, address: string | undefined): Promise<void> {
    const { counters } = await this.read(policy, email, address);
    this.refuse(counters);
  }

  /**
   * Counts one call (or one failure) on the address, then on the email and address; refuses when
   * either is blocked, including by this very hit.
   */
  async count(policy: ThrottlePolicy, email: unknown, address: string | undefined): Promise<void> {
    const counters = this.countersOf(policy, email, address);
    for (const counter of [counters.address, counters.emailAndAddress]) {
      const state = await this.counters.hit(counter.key, counter.windowMs, counter.limit, counter.windowMs);
      if (state.blockedForMs > 0) throw AppError.tooManyRequests(state.blockedForMs / 1000);
    }
  }

  /**
   * A success (a correct password): refuses if failures counted meanwhile have blocked the email
   * and address, or the address (a burst of guesses gains nothing from racing the check made
   * before the password was verified); otherwise clears the failures of the email and address.
   * Reads without locking, and writes only when there are failures to clear.
   */
  async succeeded(policy: ThrottlePolicy, email: unknown, address: string | undefined): Promise<void> {
    const { counters, emailAndAddress } = await this.read(policy, email, address);
    this.refuse(counters);
    if (counters.has(emailAndAddress)) await this.counters.clearUnlessBlocked(emailAndAddress);
  }

  /**
   * Whether a signup may mail this existing account, named as its contact, a consent link: only
   * the first time in a signup window (signupContactMailCounter; docs/decisions.md D-78). Counted
   * in the caller's transaction, so the count and the email it allows commit or roll back together.
   */
  async mayMailSignupContact(userId: string): Promise<boolean> {
    const counter = signupContactMailCounter(this.settings, userId);
    const state = await this.counters.hit(counter.key, counter.windowMs, counter.limit, counter.windowMs);
    return state.hits === 1;
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

  private countersOf(policy: ThrottlePolicy, email: unknown, address: string | undefined): ThrottleCounters {
    return throttleCounters(this.settings, policy, email, address);
  }

  private async read(policy: ThrottlePolicy, email: unknown, address: string | undefined) {
    const { address: byAddress, emailAndAddress } = this.countersOf(policy, email, address);
    const counters = await this.counters.statesOf([byAddress.key, emailAndAddress.key]);
    return { counters, emailAndAddress: emailAndAddress.key };
  }

  private refuse(states: ReadonlyMap<string, CounterState>): void {
    const blockedForMs = Math.max(0, ...[...states.values()].map((state) => state.blockedForMs));
    if (blockedForMs > 0) throw AppError.tooManyRequests(blockedForMs / 1000);
  }
}
