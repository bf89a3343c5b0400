import {
  ArgumentsHost,
  Catch,
  Controller,
  DynamicModule,
  ExceptionFilter,
  Get,
  HttpException,
  Inject,
  Module,
  ModuleMetadata,
  Optional,
  UseFilters,
} from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import {
  HealthCheck,
  HealthCheckResult,
  HealthCheckService,
  HealthIndicatorFunction,
  TerminusModule,
  TypeOrmHealthIndicator,
} from '@nestjs/terminus';
import type { Response } from 'express';

/** Extra readiness checks a service adds (e.g. "the index is built"), beside the database ping. */
export const READINESS_CHECKS = Symbol('READINESS_CHECKS');

/** The DataSource readiness pings, when it is not the app's default one (`HealthModuleOptions.pingDatabase`). */
const PINGED_DATABASE = Symbol('PINGED_DATABASE');

/** Health answers keep terminus's own body (docs/decisions.md D-14), also when they fail with 503. */
@Catch(HttpException)
class HealthBodyFilter implements ExceptionFilter {
  catch(exception: HttpException, host: ArgumentsHost): void {
    host.switchToHttp().getResponse<Response>().status(exception.getStatus()).json(exception.getResponse());
  }
}

@ApiExcludeController()
@Controller('health')
@UseFilters(HealthBodyFilter)
export class HealthController {
  constructor(
    private readonly health: HealthCheckService,
    private readonly database: TypeOrmHealthIndicator,
    @Optional() @Inject(READINESS_CHECKS) private readonly readinessChecks: HealthIndicatorFunction[] = [],
    @Optional() @Inject(PINGED_DATABASE) private readonly pingedDatabase?: unknown,
  ) {}

  /** The process is up and serving; never touches the database. */
  @Get('live')
  @HealthCheck()
  live(): Promise<HealthCheckResult> {
    return this.health.check([]);
  }

  /** Ready for traffic: the database answers within a second, and the service's own checks pass. */
  @Get('ready')
  @HealthCheck()
  ready(): Promise<HealthCheckResult> {
    return this.health.check([
      () =>
        this.database.pingCheck('database', {
          timeout: 1000,
          ...(this.pingedDatabase ? { connection: this.pingedDatabase } : {}),
        }),
      ...this.readinessChecks,
    ]);
  }
}

export interface HealthModuleOptions {
  imports?: ModuleMetadata['imports'];
  /**
   * The injection token of the DataSource readiness pings instead of the app's default one (the
   * search service pings the database it serves listings from).
   */
  pingDatabase?: string | symbol | Function;
  readinessChecks?: {
    inject?: (string | symbol | Function)[];
    useFactory: (...deps: never[]) => HealthIndicatorFunction[];
  };
}

@Module({})
export class HealthModule {
  static forRoot(options: HealthModuleOptions = {}): DynamicModule {
    return {
      module: HealthModule,
      imports: [TerminusModule.forRoot({ logger: false }), ...(options.imports ?? [])],
      controllers: [HealthController],
      providers: [
        ...(options.readinessChecks
          ? [
              {
                provide: READINESS_CHECKS,
                inject: options.readinessChecks.inject ?? [],
                useFactory: options.readinessChecks.useFactory,
              },
            ]
          : []),
        ...(options.pingDatabase ? [{ provide: PINGED_DATABASE, useExisting: options.pingDatabase }] : []),
      ],
    };
  }
}
