import 'reflect-metadata';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { NestFactory } from '@nestjs/core';
import { AppModule } from '../app.module';
import { loadSearchConfig } from '../config';
import { buildOpenApiDocument } from '../http/docs/api-docs';

// `pnpm --filter search contract:update`: writes the committed OpenAPI 3.1 snapshot of the search
// service (contract/openapi.json), the document it serves at /openapi.json when WITH_DOCS is on.
// Runs on the compiled service (`tsc -b` first, as the package script does), like the backend's
// src/contract/write-contract.ts; CI regenerates it and fails on a difference.

const SNAPSHOT = join(__dirname, '..', '..', 'contract', 'openapi.json');

async function main(): Promise<void> {
  // The environment of a local run with the docs on; no VERSION_TAG, so the version is the one
  // the service falls back to (http.ts). The app is built in preview mode: no provider runs, no
  // database is opened, which is all the document needs.
  const config = loadSearchConfig({
    APP_ENV: 'local',
    LOG_LEVEL: 'silent',
    WITH_DOCS: 'true',
    CATALOGUE_SOURCE: 'none',
  });
  const app = await NestFactory.create(
    AppModule.forRoot({ config, database: { url: 'postgres://unused', singleSession: true } }),
    { preview: true, logger: false, abortOnError: false },
  );
  const document = buildOpenApiDocument(app, config.VERSION_TAG ?? '0.1.0');
  mkdirSync(dirname(SNAPSHOT), { recursive: true });
  writeFileSync(SNAPSHOT, `${JSON.stringify(document, null, 2)}\n`);
  console.log(`[contract] wrote ${SNAPSHOT}`);
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
