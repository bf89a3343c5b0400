export type CircuitState = 'closed' | 'open' | 'half_open';

export interface CircuitBreakerOptions {
  /** Consecutive failures that open the circuit. */
  failureThreshold: number;
  /** How long the circuit stays open before one trial call is let through (half-open). */
  cooldownMs: number;
  /** The clock, in milliseconds (tests pass a fake one). */
  now?: () => number;
  /** Called on every change of state (metrics, logs). */
  onStateChange?: (state: CircuitState, previous: CircuitState) => void;
}

/**
 * A consecutive-failure circuit breaker, so that an outage of a dependency fails fast instead of
 * making every caller wait for a timeout:
 *
 * - closed: calls go through; `failureThreshold` failures in a row open the circuit;
 * - open: calls are refused at once until `cooldownMs` have passed, then the circuit is half-open;
 * - half-open: one trial call goes through (concurrent ones are refused); its success closes the
 *   circuit, its failure opens it for another cool-down.
 *
 * Usage: `if (!breaker.tryAcquire()) fail fast;` then report exactly one of `success()`,
 * `failure()` or `release()` (an outcome that says nothing about the dependency's health, such as
 * a 429) for the call.
 */
export class CircuitBreaker {
  private current: CircuitState = 'closed';
  private consecutiveFailures = 0;
  private openedAt = 0;
  private trialInFlight = false;
  private readonly now: () => number;

  constructor(private readonly options: CircuitBreakerOptions) {
    if (!(options.failureThreshold >= 1)) throw new Error('failureThreshold must be at least 1');
    if (!(options.cooldownMs >= 0)) throw new Error('cooldownMs must not be negative');
    this.now = options.now ?? Date.now;
  }

  /** The state now (an open circuit whose cool-down is over reads as half-open). */
  get state(): CircuitState {
    if (this.current === 'open' && this.now() - this.openedAt >= this.options.cooldownMs) {
      this.transition('half_open');
    }
    return this.current;
  }

  /** Milliseconds until an open circuit lets a trial through (0 unless open). */
  get remainingCooldownMs(): number {
    return this.state === 'open' ? this.openedAt + this.options.cooldownMs - this.now() : 0;
  }

  /** Failures in a row so far (reset by a success). */
  get failures(): number {
    return this.consecutiveFailures;
  }

  /** May a call go out now? `true` obliges the caller to report its outcome. */
  tryAcquire(): boolean {
    switch (this.state) {
      case 'closed':
        return true;
      case 'open':
        return false;
      case 'half_open':
        if (this.trialInFlight) return false;
        this.trialInFlight = true;
        return true;
    }
  }

  success(): void {
    this.trialInFlight = false;
    this.consecutiveFailures = 0;
    if (this.current !== 'closed') this.transition('closed');
  }

  failure(): void {
    this.trialInFlight = false;
    this.consecutiveFailures++;
    if (this.current === 'half_open' || this.consecutiveFailures >= this.options.failureThreshold) {
      this.openedAt = this.now();
      this.transition('open');
    }
  }

  /** A call ended without telling anything about the dependency's health: frees a half-open trial. */
  release(): void {
    this.trialInFlight = false;
  }

  private transition(next: CircuitState): void {
    const previous = this.current;
    if (previous === next) return;
    this.current = next;
    this.options.onStateChange?.(next, previous);
  }
}
