import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase, runMigrateCommand } from '@rt/database';
import { Client } from 'pg';
import { csvCellSql, exportSql, listingSql } from '../src/activation-codes/activation-code-listing.sql';
import { BACKEND_EXTENSIONS } from '../src/database/extensions';
import { backendMigrations } from '../src/database/migrations';

/**
 * Runs whatever TEST_DATABASE_URL says, so CI migrates the embedded database (PGlite,
 * PostgreSQL 18) as well as the real server: the migrations must run on both.
 */
describe('backend migrations on the embedded database', () => {
  let dataDir: string;
  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'rt-backend-embedded-'));
  });
  afterAll(() => rm(dataDir, { recursive: true, force: true }));

  it('migrates and keeps its data across a restart', async () => {
    await runMigrateCommand({
      app: 'backend',
      dataDir,
      extensions: BACKEND_EXTENSIONS,
      migrations: backendMigrations,
    });

    const first = await openDatabase({ dataDir, extensions: BACKEND_EXTENSIONS });
    const client = new Client({ connectionString: first.url });
    await client.connect();
    await client.query('CREATE TABLE restart_probe (note text)');
    await client.query(`INSERT INTO restart_probe VALUES ('kept')`);
    await client.end();
    await first.close();

    const second = await openDatabase({ dataDir, extensions: BACKEND_EXTENSIONS });
    const again = new Client({ connectionString: second.url });
    await again.connect();
    const kept = await again.query<{ note: string }>('SELECT note FROM restart_probe');
    const migrations = await again.query<{ name: string }>('SELECT name FROM migrations');
    // The statements PostgreSQL builds the export's CSV and the code search with run here too.
    const cell = await again.query<{ cell: string }>(`SELECT ${csvCellSql('$1::text')} AS cell`, ['=1,2']);
    const exported = exportSql({ search: 'AB-CD' }, { form: 'csv-lines', chunk: { limit: 10 } });
    const listed = listingSql({ search: 'AB-CD' }, { limit: 10, offset: 0 });
    const exportedRows = (await again.query(exported.text, exported.values)).rows;
    const listedRows = (await again.query(listed.text, listed.values)).rows;
    await again.end();
    await second.close();
    expect(kept.rows).toEqual([{ note: 'kept' }]);
    expect(migrations.rows.map((row) => row.name)).toEqual(backendMigrations.map((m) => m.name));
    expect(cell.rows).toEqual([{ cell: `"'=1,2"` }]);
    expect(exportedRows).toEqual([]);
    expect(listedRows).toEqual([expect.objectContaining({ total: 0, id: null })]);
  });
});
