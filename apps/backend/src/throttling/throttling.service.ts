import { Injectable } from '@nestjs/common';
import { ThrottleCountersRepository } from './throttle-counters.repository';
import { throttleKey, ThrottlePolicy } from './throttle-policies';

@Injectable()
export class ThrottlingService {
  constructor(private readonly counters: ThrottleCountersRepository) {}

  /** Clears one counter, e.g. the failed logins of an email and address after a success. */
  forgive(policy: ThrottlePolicy, tracker: string): Promise<void> {
    return this.counters.reset(throttleKey(policy, tracker));
  }
}
