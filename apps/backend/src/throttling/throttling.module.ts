import { Global, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { RateLimitGuard } from './rate-limit.guard';
import { ThrottleCounter } from './throttle-counter.entity';
import { ThrottleCountersRepository } from './throttle-counters.repository';
import { ThrottlingService } from './throttling.service';

/** Rate limiting with counters in PostgreSQL. Routes opt in with `@RateLimit`. */
@Global()
@Module({
  imports: [TypeOrmModule.forFeature([ThrottleCounter])],
  providers: [ThrottleCountersRepository, ThrottlingService, RateLimitGuard],
  exports: [ThrottlingService, RateLimitGuard],
})
export class ThrottlingModule {}
