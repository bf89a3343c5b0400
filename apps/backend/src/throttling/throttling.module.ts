import { Global, Module } from '@nestjs/common';
import { ThrottlerModule } from '@nestjs/throttler';
import { TypeOrmModule } from '@nestjs/typeorm';
import { BACKEND_CONFIG, type BackendConfig } from '../config';
import { PostgresThrottlerStorage } from './postgres-throttler.storage';
import { RateLimitGuard } from './rate-limit.guard';
import { ThrottleCounter } from './throttle-counter.entity';
import { ThrottleCountersRepository } from './throttle-counters.repository';
import { throttleKey, throttlerOptions } from './throttle-policies';
import { ThrottlingService } from './throttling.service';

@Module({
  imports: [TypeOrmModule.forFeature([ThrottleCounter])],
  providers: [ThrottleCountersRepository, PostgresThrottlerStorage],
  exports: [ThrottleCountersRepository, PostgresThrottlerStorage],
})
class ThrottleStorageModule {}

/** Rate limiting with `@nestjs/throttler`, counters in PostgreSQL. Routes opt in with `@RateLimit`. */
@Global()
@Module({
  imports: [
    ThrottleStorageModule,
    ThrottlerModule.forRootAsync({
      imports: [ThrottleStorageModule],
      inject: [BACKEND_CONFIG, PostgresThrottlerStorage],
      useFactory: (config: BackendConfig, storage: PostgresThrottlerStorage) => ({
        storage,
        setHeaders: false,
        generateKey: (_context, tracker, name) => throttleKey(name, tracker),
        throttlers: throttlerOptions(config),
      }),
    }),
  ],
  providers: [ThrottlingService, RateLimitGuard],
  exports: [ThrottlingService, RateLimitGuard],
})
export class ThrottlingModule {}
