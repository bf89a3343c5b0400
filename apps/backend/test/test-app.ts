import type { AddressInfo } from 'node:net';
import type { INestApplication, Type } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { NEST_APP_OPTIONS } from '@rt/platform';
import { createTestDatabase, type TestDatabase } from '@rt/testing';
import request from 'supertest';
import type TestAgent from 'supertest/lib/agent';
import { DataSource } from 'typeorm';
import { AppModule } from '../src/app.module';
import { loadBackendConfig } from '../src/config';
import { configureBackendHttp } from '../src/http';
import { MailSender } from '../src/mail/mail-sender';
import { DeliveryRound, OutboxWorker } from '../src/mail/outbox-worker';
import { type ActingAs, Factories, makeFactories, type SignedIn } from './factories';
import { RecordingMailSender } from './recording-mail-sender';

export interface TestApp extends Factories {
  app: INestApplication;
  http: TestAgent;
  dataSource: DataSource;
  database: TestDatabase;
  /** Every email the outbox worker delivered (call `deliverMail` first). */
  mail: RecordingMailSender;
  /** Runs the outbox worker once: every due message is delivered to `mail` before it resolves. */
  deliverMail(): Promise<DeliveryRound>;
  close(): Promise<void>;
}

export interface TestAppOptions {
  env?: Record<string, string>;
  /** Controllers that exist only in tests (e.g. to exercise the platform before real routes). */
  controllers?: Type[];
  /**
   * `configured`: the transport the configuration chooses (SMTP_URL, else the local files), for
   * the mail delivery tests; by default a RecordingMailSender.
   */
  mailSender?: 'recording' | 'configured';
  /** Run on this database (another app's, as a second replica would); it is not dropped on close. */
  database?: TestDatabase;
}

/**
 * Cheap scrypt for tests (the parameters are stored in each hash, so nothing else changes);
 * src/passwords/password-hash.spec.ts covers the production parameters.
 */
const TEST_ENV = {
  APP_ENV: 'local',
  LOG_LEVEL: 'silent',
  PASSWORD_SCRYPT_N: '1024',
  PASSWORD_SCRYPT_P: '1',
  // Tests deliver the outbox when they choose (deliverMail), never behind their back.
  MAIL_WORKER_ENABLED: 'false',
};

/**
 * Every throttle out of the way, for a file whose calls all come from one address and that tests
 * no throttle; a file that tests one sets its limit after this (`{ ...UNTHROTTLED_ENV, … }`).
 */
export const UNTHROTTLED_ENV: Record<string, string> = {
  THROTTLE_LOGIN_LIMIT: '1000',
  THROTTLE_LOGIN_ADDRESS_LIMIT: '1000',
  THROTTLE_PASSWORD_LIMIT: '1000',
  THROTTLE_PASSWORD_ADDRESS_LIMIT: '1000',
  THROTTLE_SIGNUP_LIMIT: '1000',
  THROTTLE_CLAIM_LIMIT: '1000',
  THROTTLE_CLAIM_ADDRESS_LIMIT: '1000',
  THROTTLE_EMAIL_CHANGE_LIMIT: '1000',
  THROTTLE_EMAIL_CHANGE_ADDRESS_LIMIT: '1000',
};

/** The backend as `main.ts` builds it, on this test file's own migrated database. */
export async function createTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const database = options.database ?? (await createTestDatabase('backend'));
  const config = loadBackendConfig({ ...TEST_ENV, ...options.env });
  const mail = new RecordingMailSender();
  const builder = Test.createTestingModule({
    imports: [AppModule.forRoot({ config, database })],
    controllers: options.controllers ?? [],
  });
  if (options.mailSender !== 'configured') builder.overrideProvider(MailSender).useValue(mail);
  const moduleRef = await builder.compile();
  const app = moduleRef.createNestApplication(NEST_APP_OPTIONS);
  configureBackendHttp(app, config);
  await app.init();
  const http = request(app.getHttpServer());
  return {
    app,
    http,
    dataSource: app.get(DataSource),
    database,
    mail,
    deliverMail: () => app.get(OutboxWorker).deliverDue(),
    ...makeFactories(app),
    close: async () => {
      await app.close();
      if (!options.database) await database.drop();
    },
  };
}

/**
 * A test app with its super-admin signed in, and that agent acting under the `super-admin` hat:
 * the setup of the files that test super-admin routes.
 */
export async function createTestAppAsSuperAdmin(
  options: TestAppOptions = {},
): Promise<{ t: TestApp; admin: SignedIn; asAdmin: ActingAs }> {
  const t = await createTestApp(options);
  const admin = await t.signedInSuperAdmin();
  return { t, admin, asAdmin: admin.as('super-admin') };
}

/** Starts the app on a free port of 127.0.0.1 and answers the typed client's base URL (`…/api`). */
export async function listenForClient(t: TestApp): Promise<string> {
  await t.app.listen(0, '127.0.0.1');
  return `http://127.0.0.1:${(t.app.getHttpServer().address() as AddressInfo).port}/api`;
}
