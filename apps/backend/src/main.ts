// Tracing first: its instrumentations must see http and pg loaded.
import { tracing } from './tracing';
import 'reflect-metadata';
import { startApp } from '@rt/database';
import { httpAppOn, listeningOrigin, refuseBusyPort, runEntryPoint, serveStarted } from '@rt/platform';
import { AppModule } from './app.module';
import { loadBackendConfig } from './config';
import { BACKEND_EXTENSIONS } from './database/extensions';
import { configureBackendHttp } from './http';
import { applyLocalSigningKeys } from './images/local-signing-keys';
import { OrganizationsDemoSeed } from './organizations/organizations-demo-seed';
import { ToursDemoSeed } from './tours/tours-demo-seed';
import { AdminPasswordFile } from './users/admin-password-file';
import { listenForAdminResets } from './users/admin-reset-channel';
import { UsersService } from './users/users.service';

const RESET_COMMAND = 'pnpm --filter backend user:create-admin';

/**
 * The generated password's notice: a framed block on a terminal, where it must not drown among
 * the start's lines; one line in JSON logs (LOG_FORMAT=json, or output not to a terminal).
 */
function generatedPasswordNotice(
  admin: { email: string; password: string; file: string | null },
  format: 'json' | 'pretty',
): string {
  const kept = admin.file
    ? `kept in ${admin.file} (mode 0600) until its first sign-in or password change`
    : null;
  if (format === 'json') {
    return `Super-admin created: ${admin.email} with the generated password ${admin.password} (shown only this once${kept ? `; ${kept}` : ''}; reset it with ${RESET_COMMAND})`;
  }
  const lines = [
    `Super-admin created: ${admin.email}`,
    `Generated password:  ${admin.password}`,
    'Shown only this once' + (kept ? `; ${kept}.` : '.'),
    `Reset it, also while this runs: ${RESET_COMMAND}`,
  ];
  const width = Math.max(...lines.map((line) => line.length));
  const rule = '─'.repeat(width + 2);
  return ['', `┌${rule}┐`, ...lines.map((line) => `│ ${line.padEnd(width)} │`), `└${rule}┘`].join('\n');
}

async function bootstrap(): Promise<void> {
  const config = loadBackendConfig();
  // A port in use is said in one line before anything is opened or seeded.
  await refuseBusyPort(config.HOST, config.port);
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
    // The demo run: make sure someone can sign in. A generated password is shown once, when created.
    const admin = await app
      .get(UsersService)
      .seedSuperAdmin({ email: config.ADMIN_EMAIL, password: config.ADMIN_PASSWORD });
    if (admin.outcome === 'created' && admin.generatedPassword) {
      const file = await app.get(AdminPasswordFile).keep(admin.email, admin.generatedPassword);
      const format = config.LOG_FORMAT ?? (process.stdout.isTTY ? 'pretty' : 'json');
      logger.warn(
        generatedPasswordNotice({ email: admin.email, password: admin.generatedPassword, file }, format),
        'Seed',
      );
    } else if (admin.outcome === 'created') {
      logger.warn(`Super-admin created: ${admin.email} with the password of ADMIN_PASSWORD`, 'Seed');
    }
    // The embedded database is this process's alone: the reset command asks this process (D-80).
    await listenForAdminResets(config.dataDir, (input) =>
      app.get(UsersService).createOrResetSuperAdmin(input),
    );
    logger.log(`Reset the super-admin's password while this runs: ${RESET_COMMAND}`, 'Seed');
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
