import type { INestApplication, Type } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { NEST_APP_OPTIONS } from '@rt/platform';
import { createTestDatabase } from '@rt/testing';
import request from 'supertest';
import type TestAgent from 'supertest/lib/agent';
import { DataSource } from 'typeorm';
import { AppModule } from '../src/app.module';
import { loadBackendConfig } from '../src/config';
import { configureBackendHttp } from '../src/http';
import { MailSender } from '../src/mail/mail-sender';
import { Factories, makeFactories } from './factories';
import { RecordingMailSender } from './recording-mail-sender';

export interface TestApp extends Factories {
  app: INestApplication;
  http: TestAgent;
  dataSource: DataSource;
  /** Every email the app "sent". */
  mail: RecordingMailSender;
  close(): Promise<void>;
}

export interface TestAppOptions {
  env?: Record<string, string>;
  /** Controllers that exist only in tests (e.g. to exercise the platform before real routes). */
  controllers?: Type[];
}

/**
 * Cheap scrypt for tests (the parameters are stored in each hash, so nothing else changes);
 * src/passwords/password-hash.spec.ts covers the production parameters.
 */
const TEST_ENV = { APP_ENV: 'local', LOG_LEVEL: 'silent', PASSWORD_SCRYPT_N: '1024', PASSWORD_SCRYPT_P: '1' };

/** The backend as `main.ts` builds it, on this test file's own migrated database. */
export async function createTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const database = await createTestDatabase('backend');
  const config = loadBackendConfig({ ...TEST_ENV, ...options.env });
  const mail = new RecordingMailSender();
  const moduleRef = await Test.createTestingModule({
    imports: [AppModule.forRoot({ config, database })],
    controllers: options.controllers ?? [],
  })
    .overrideProvider(MailSender)
    .useValue(mail)
    .compile();
  const app = moduleRef.createNestApplication(NEST_APP_OPTIONS);
  configureBackendHttp(app, config);
  await app.init();
  const http = request(app.getHttpServer());
  return {
    app,
    http,
    dataSource: app.get(DataSource),
    mail,
    ...makeFactories(app),
    close: async () => {
      await app.close();
      await database.drop();
    },
  };
}
