import {
  BrokenCircuitError,
  circuitBreaker,
  CircuitState as PolicyState,
  ConsecutiveBreaker,
  handleWhen,
} from 'cockatiel';
import type { CircuitBreakerPolicy } from 'cockatiel';

export type CircuitState = 'closed' | 'open' | 'half_open';

export interface CircuitBreakerOptions {
  /** Consecutive failures that open the circuit. */
  failureThreshold: number;
  /** How long the circuit stays open before one trial call is let through (half-open). */
  cooldownMs: number;
  /**
   * Whether an error says the dependency is failing (default: every error). Any other error (a 429)
   * neither counts nor resets the failures, and leaves a half-open circuit half-open.
   */
  isFailure?: (error: Error) => boolean;
  /** Called on every change of state (metrics, logs). */
  onStateChange?: (state: CircuitState, previous: CircuitState) => void;
}

const STATES: Record<PolicyState, CircuitState> = {
  [PolicyState.Closed]: 'closed',
  [PolicyState.Open]: 'open',
  [PolicyState.HalfOpen]: 'half_open',
  [PolicyState.Isolated]: 'open',
};

const inTrial = (policy: CircuitBreakerPolicy) => policy.state === PolicyState.HalfOpen;

/**
 * cockatiel's consecutive-failure circuit breaker (`ConsecutiveBreaker`, `halfOpenAfter` the
 * cool-down), so that an outage of a dependency fails fast instead of making every caller wait for a
 * timeout. On top of cockatiel:
 *
 * - a call that arrives while the half-open trial runs is refused at once (cockatiel would make it
 *   wait for the trial);
 * - a trial that ends with an error that is not a failure leaves the circuit half-open (cockatiel
 *   would close it): the circuit is rebuilt from cockatiel's own snapshot of the half-open state;
 * - the state reads half-open as soon as the cool-down is over (cockatiel changes it on the next call).
 *
 * Refused calls reject with cockatiel's `BrokenCircuitError`.
 */
export class CircuitBreaker {
  private readonly consecutive: ConsecutiveBreaker;
  private policy: CircuitBreakerPolicy;
  private current: CircuitState = 'closed';
  private openedAt = 0;

  constructor(private readonly options: CircuitBreakerOptions) {
    if (!(options.failureThreshold >= 1)) throw new Error('failureThreshold must be at least 1');
    if (!(options.cooldownMs >= 0)) throw new Error('cooldownMs must not be negative');
    this.consecutive = new ConsecutiveBreaker(options.failureThreshold);
    this.policy = this.createPolicy();
  }

  /** The state now (an open circuit whose cool-down is over reads as half-open). */
  get state(): CircuitState {
    if (this.current === 'open' && Date.now() - this.openedAt >= this.options.cooldownMs) {
      this.transition('half_open');
    }
    return this.current;
  }

  /** Milliseconds until an open circuit lets a trial through (0 unless open). */
  get remainingCooldownMs(): number {
    return this.state === 'open' ? this.openedAt + this.options.cooldownMs - Date.now() : 0;
  }

  /** Failures in a row so far (reset by a success). */
  get failures(): number {
    return this.consecutive.state;
  }

  /** Runs `call`, unless the circuit refuses it (BrokenCircuitError, without calling). */
  execute<T>(call: () => Promise<T>): Promise<T> {
    const policy = this.policy;
    if (inTrial(policy)) return Promise.reject(new BrokenCircuitError());
    let trial: unknown;
    const result = policy.execute(async () => {
      try {
        return await call();
      } catch (error) {
        // Swapped before cockatiel closes the old circuit, whose change of state is then ignored.
        if (trial !== undefined && !this.isFailure(error as Error)) this.policy = this.createPolicy(trial);
        throw error;
      }
    });
    // cockatiel enters half-open synchronously when this call is the trial.
    if (inTrial(policy)) trial = policy.toJSON();
    return result;
  }

  private createPolicy(initialState?: unknown): CircuitBreakerPolicy {
    const policy = circuitBreaker(
      handleWhen((error) => this.isFailure(error)),
      { halfOpenAfter: this.options.cooldownMs, breaker: this.consecutive, initialState },
    );
    policy.onStateChange((state) => {
      if (policy !== this.policy) return;
      if (state === PolicyState.Open) this.openedAt = Date.now();
      this.transition(STATES[state]);
    });
    return policy;
  }

  private isFailure(error: Error): boolean {
    return this.options.isFailure?.(error) ?? true;
  }

  private transition(next: CircuitState): void {
    const previous = this.current;
    if (previous === next) return;
    this.current = next;
    this.options.onStateChange?.(next, previous);
  }
}
