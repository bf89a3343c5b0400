import 'reflect-metadata';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { NestFactory } from '@nestjs/core';
import { AppModule } from '../app.module';
import { loadBackendConfig } from '../config';
import { buildContractDocument } from './contract-document';

/** The committed snapshot of the contract; CI regenerates it and fails on a difference. */
export const CONTRACT_SNAPSHOT = join(__dirname, '..', '..', 'contract', 'openapi.json');

export function serializeContract(document: object): string {
  return `${JSON.stringify(document, null, 2)}\n`;
}

/**
 * `pnpm --filter backend contract:update`: writes the contract snapshot. The app is built in
 * preview mode (no provider runs, no database), which is all the document needs.
 */
async function main(): Promise<void> {
  const config = loadBackendConfig({ APP_ENV: 'local', LOG_LEVEL: 'silent' });
  const app = await NestFactory.create(
    AppModule.forRoot({ config, database: { url: 'postgres://unused', singleSession: true } }),
    { preview: true, logger: false, abortOnError: false },
  );
  writeFileSync(CONTRACT_SNAPSHOT, serializeContract(buildContractDocument(app)));
  console.log(`[contract] wrote ${CONTRACT_SNAPSHOT}`);
}

if (require.main === module) {
  main().then(
    () => process.exit(0),
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
}
