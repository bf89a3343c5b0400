import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { dumpMigratedEmbedded, startEmbeddedFromDump } from './embedded-template';
import {
  createServerCopy,
  dropServerTemplate,
  prepareServerTemplate,
  startTestRun,
  TemplateSpec,
  TestDatabase,
  testServerUrl,
} from './test-database';

/** Where the global setup tells the workers about the embedded template: `{ dumpPath, extensions }`. */
const templateVariable = (app: string) => `RT_TEST_EMBEDDED_TEMPLATE_${app.toUpperCase()}`;

interface EmbeddedTemplate {
  dumpPath: string;
  extensions: TemplateSpec['extensions'];
}

function embeddedTemplateOf(app: string): EmbeddedTemplate | undefined {
  const value = process.env[templateVariable(app)];
  return value ? (JSON.parse(value) as EmbeddedTemplate) : undefined;
}

/** Jest global setup: migrate the template once (the env it sets reaches every worker). */
export async function setUpTestDatabases(spec: TemplateSpec): Promise<void> {
  startTestRun();
  const serverUrl = testServerUrl();
  if (serverUrl) {
    console.log(`\n${await prepareServerTemplate(serverUrl, spec)}`);
    return;
  }
  const directory = await mkdtemp(join(tmpdir(), `rt-test-${spec.app}-`));
  const dumpPath = join(directory, 'template.tar');
  const started = Date.now();
  await writeFile(dumpPath, await dumpMigratedEmbedded(spec));
  process.env[templateVariable(spec.app)] = JSON.stringify({ dumpPath, extensions: spec.extensions });
  console.log(
    `\n[test-db] ${spec.app}: TEST_DATABASE_URL is not set; e2e tests run on the embedded PostgreSQL (PGlite), template migrated in ${Date.now() - started} ms`,
  );
}

export async function tearDownTestDatabases(app: string): Promise<void> {
  const serverUrl = testServerUrl();
  if (serverUrl) {
    await dropServerTemplate(serverUrl, app);
    return;
  }
  const template = embeddedTemplateOf(app);
  if (template) await rm(join(template.dumpPath, '..'), { recursive: true, force: true });
}

/** A fresh, migrated database for one test file. */
export async function createTestDatabase(app: string): Promise<TestDatabase> {
  const serverUrl = testServerUrl();
  if (serverUrl) return createServerCopy(serverUrl, app);
  const template = embeddedTemplateOf(app);
  if (!template) throw new Error(`No embedded template for ${app}: is the Jest global setup configured?`);
  return startEmbeddedFromDump(template.dumpPath, template);
}
