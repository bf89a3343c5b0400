import { DynamicModule, Global, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import type { AppDatabaseConnection } from '@rt/database';
import { HealthModule, loggingModule, MetricsModule, sectionProviders } from '@rt/platform';
import { ActivationCodesModule } from './activation-codes/activation-codes.module';
import { ActivitiesModule } from './activities/activities.module';
import { AccessTokensModule } from './access-tokens/access-tokens.module';
import { CapacityModule } from './capacity/capacity.module';
import { CommonModule } from './common/common.module';
import { BACKEND_CONFIG, BACKEND_SECTIONS, BackendConfig } from './config';
import { ContractModule } from './contract/contract.module';
import { BACKEND_DATABASE, backendDatabaseOf } from './database/database-runtime';
import { DatabaseModule } from './database/database.module';
import { backendEntities } from './entities';
import { backendMigrations } from './database/migrations';
import { backendTypeOrmOptions } from './database/typeorm';
import { ImagesModule } from './images/images.module';
import { MailModule } from './mail/mail.module';
import { OrganizationManagementModule } from './organizations/organization-management.module';
import { OrganizationsModule } from './organizations/organizations.module';
import { PasswordResetModule } from './password-reset/password-reset.module';
import { ProvidersModule } from './providers/providers.module';
import { SessionsModule } from './sessions/sessions.module';
import { TagsModule } from './tags/tags.module';
import { ThrottlingModule } from './throttling/throttling.module';
import { TripsModule } from './trips/trips.module';
import { ToursModule } from './tours/tours.module';
import { UsersModule } from './users/users.module';
import { VersionModule } from './version/version.module';
import { ViewingModule } from './viewing/viewing.module';

export interface BackendRuntime {
  config: BackendConfig;
  database: AppDatabaseConnection;
}

@Global()
@Module({})
export class AppModule {
  static forRoot(runtime: BackendRuntime): DynamicModule {
    return {
      module: AppModule,
      imports: [
        loggingModule({
          level: runtime.config.LOG_LEVEL,
          format: runtime.config.LOG_FORMAT,
          serviceName: 'backend',
        }),
        TypeOrmModule.forRoot(
          backendTypeOrmOptions({
            url: runtime.database.url,
            singleSession: runtime.database.singleSession,
            poolSize: runtime.config.DB_POOL_SIZE,
            entities: backendEntities,
            migrations: backendMigrations,
            applicationName: 'backend',
          }),
        ),
        MetricsModule,
        HealthModule.forRoot(),
        VersionModule,
        DatabaseModule,
        CommonModule,
        MailModule,
        ThrottlingModule,
        OrganizationsModule,
        AccessTokensModule,
        UsersModule,
        ImagesModule,
        OrganizationManagementModule,
        SessionsModule,
        PasswordResetModule,
        ActivationCodesModule,
        // Before ToursModule: GET /tour/providers and /tour/activities must be matched before GET /tour/{id}.
        TagsModule,
        ProvidersModule,
        ActivitiesModule,
        ToursModule,
        TripsModule,
        CapacityModule,
        ViewingModule,
        ContractModule,
      ],
      providers: [
        // The whole, for start-up code; each feature is injected its section (src/config.ts).
        { provide: BACKEND_CONFIG, useValue: runtime.config },
        ...sectionProviders(runtime.config, BACKEND_SECTIONS),
        {
          provide: BACKEND_DATABASE,
          useValue: backendDatabaseOf(runtime.database, runtime.config.DB_POOL_SIZE),
        },
      ],
      exports: [BACKEND_CONFIG, ...BACKEND_SECTIONS, BACKEND_DATABASE],
    };
  }
}
