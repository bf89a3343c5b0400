import { EmbeddedPostgres, embeddedExtensions } from '@rt/database';
import { migrate, TemplateSpec, TestDatabase } from './test-database';

/** A migrated in-memory embedded database, dumped: the template every test file starts from. */
export async function dumpMigratedEmbedded(spec: TemplateSpec): Promise<Uint8Array> {
  const embedded = await EmbeddedPostgres.start({ extensions: embeddedExtensions(spec.extensions) });
  try {
    await migrate(embedded.url, spec, true);
    return await embedded.dump({ compress: false });
  } finally {
    await embedded.stop();
  }
}

export async function startEmbeddedFromDump(
  dumpPath: string,
  spec: Pick<TemplateSpec, 'extensions'>,
): Promise<TestDatabase> {
  const embedded = await EmbeddedPostgres.start({
    loadDataDir: { file: dumpPath },
    extensions: embeddedExtensions(spec.extensions),
    relaxedDurability: true,
    // A test may open a second app on the same database (another strategy or limit, the same
    // catalogue): each app keeps one session (singleSession), and the server takes them all.
    maxConnections: 4,
  });
  return { url: embedded.url, singleSession: true, drop: () => embedded.stop() };
}
