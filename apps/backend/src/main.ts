// Tracing first: its instrumentations must see http and pg loaded.
import { tracing } from './tracing';
import 'reflect-metadata';
import { startApp } from '@rt/database';
import { httpAppOn, listeningOrigin, runEntryPoint, serveStarted } from '@rt/platform';
import { AppModule } from './app.module';
import { loadBackendConfig } from './config';
import { BACKEND_EXTENSIONS } from './database/extensions';
import { configureBackendHttp } from './http';
import { applyLocalSigningKeys } from './images/local-signing-keys';
import { OrganizationsDemoSeed } from './organizations/organizations-demo-seed';
import { ToursDemoSeed } from './tours/tours-demo-seed';
import { UsersService } from './users/users.service';

async function bootstrap(): Promise<void> {
  const config = loadBackendConfig();
  // A local run signs image URLs with a pair kept in DATA_DIR, so they outlive a restart.
  const signingKeys = await applyLocalSigningKeys(config);
  const started = await startApp(
    {
      app: 'backend',
      url: config.DATABASE_URL,
      dataDir: config.dataDir,
      extensions: BACKEND_EXTENSIONS,
      migrate: config.migrateOnStart,
    },
    httpAppOn(
      (database) => AppModule.forRoot({ config, database }),
      (app) => configureBackendHttp(app, config),
    ),
  );
  const { app, database } = started;
  const logger = serveStarted(started, {
    graceMs: config.SHUTDOWN_GRACE_MS,
    migrated: config.migrateOnStart,
    flush: () => tracing.shutdown(),
  });
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
    const demo = await app.get(OrganizationsDemoSeed).run();
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
  await app.listen(config.port, config.HOST);
  logger.log(`Backend listening on ${listeningOrigin(config.HOST, config.port)}/api`, 'Bootstrap');
}

runEntryPoint(bootstrap);
