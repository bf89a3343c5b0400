import { Injectable } from '@nestjs/common';

/** The time, behind an injectable so rules that depend on it can be tested. */
@Injectable()
export class Clock {
  now(): Date {
    return new Date();
  }
}
