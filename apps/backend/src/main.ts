// Tracing first: its instrumentations must see http and pg loaded.
import { tracing } from './tracing';
import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { startApp } from '@rt/database';
import { closeOnSignals, ConfigError, NEST_APP_OPTIONS } from '@rt/platform';
import { Logger } from 'nestjs-pino';
import { AppModule } from './app.module';
import { loadBackendConfig } from './config';
import { BACKEND_EXTENSIONS } from './database/extensions';
import { configureBackendHttp } from './http';
import { applyLocalSigningKeys } from './images/local-signing-keys';
import { OrganizationManagementService } from './organizations/organization-management.service';
import { ToursDemoSeed } from './tours/tours-demo-seed';
import { UsersService } from './users/users.service';

async function bootstrap(): Promise<void> {
  const config = loadBackendConfig();
  // A local run signs image URLs with a pair kept in DATA_DIR, so they outlive a restart.
  const signingKeys = await applyLocalSigningKeys(config);
  const { app, database, applied } = await startApp(
    {
      app: 'backend',
      url: config.DATABASE_URL,
      dataDir: config.dataDir,
      extensions: BACKEND_EXTENSIONS,
      migrate: config.migrateOnStart,
    },
    async (connection) => {
      const created = await NestFactory.create<NestExpressApplication>(
        AppModule.forRoot({ config, database: connection }),
        NEST_APP_OPTIONS,
      );
      configureBackendHttp(created, config);
      return created;
    },
  );
  const logger = app.get(Logger);
  closeOnSignals(app, {
    graceMs: config.SHUTDOWN_GRACE_MS,
    logger,
    afterClose: () => database.close(),
    flush: () => tracing.shutdown(),
  });
  if (database.embedded) logger.log(`Embedded PostgreSQL with its data in ${database.dataDir}`, 'Database');
  if (config.migrateOnStart) logger.log(`Migrations applied: ${applied.length}`, 'Database');
  if (signingKeys) {
    const how = signingKeys.created ? 'drawn and kept in' : 'read from';
    logger.log(`Image signing keys ${how} ${signingKeys.file}`, 'Images');
  }
  if (database.embedded) {
    // The demo run: make sure someone can sign in. The password is shown once, when created.
    const admin = await app
      .get(UsersService)
      .seedSuperAdmin({ email: config.ADMIN_EMAIL, password: config.ADMIN_PASSWORD });
    if (admin.outcome === 'created') {
      logger.warn(
        admin.generatedPassword
          ? `Super-admin created: ${admin.email} with the generated password ${admin.generatedPassword} (shown only this once; reset it with pnpm --filter backend user:create-admin)`
          : `Super-admin created: ${admin.email} with the password of ADMIN_PASSWORD`,
        'Seed',
      );
    }
    // A region and a reseller to look at, each with a manager invited by email (see the outbox).
    const demo = await app.get(OrganizationManagementService).seedDemo();
    for (const organization of demo) {
      logger.log(
        `Demo organization created: ${organization.name} (${organization.type}, approved); its manager ${organization.managerEmail} is invited by email`,
        'Seed',
      );
    }
    // Tags, providers, activities and two tours (linked to the demo region), once.
    const tours = await app.get(ToursDemoSeed).run();
    if (tours) {
      logger.log(
        `Demo tours created: ${tours.tags} tags, ${tours.providers} providers, ${tours.activities} activities, tours: ${tours.tours.join(', ') || 'none (no partner organization)'}`,
        'Seed',
      );
    }
  }
  await app.listen(config.port);
  logger.log(`Backend listening on http://localhost:${config.port}/api`, 'Bootstrap');
}

bootstrap().catch((error: unknown) => {
  console.error(error instanceof ConfigError ? error.message : error);
  process.exit(1);
});
