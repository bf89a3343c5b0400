import { runMigrateCommand } from '@rt/database';
import { onEmbeddedDatabase, temporaryFolder } from '@rt/testing';
import { csvCellSql, exportSql, listingSql } from '../src/activation-codes/activation-code-listing.sql';
import { BACKEND_EXTENSIONS } from '../src/database/extensions';
import { backendMigrations } from '../src/database/migrations';

/**
 * Runs whatever TEST_DATABASE_URL says, so CI migrates the embedded database (PGlite,
 * PostgreSQL 18) as well as the real server: the migrations must run on both.
 */
describe('backend migrations on the embedded database', () => {
  const data = temporaryFolder('rt-backend-embedded-');
  const embedded = () => ({ dataDir: data.path, extensions: BACKEND_EXTENSIONS });

  it('migrates and keeps its data across a restart', async () => {
    await runMigrateCommand({ app: 'backend', ...embedded(), migrations: backendMigrations });

    await onEmbeddedDatabase(embedded(), async (client) => {
      await client.query('CREATE TABLE restart_probe (note text)');
      await client.query(`INSERT INTO restart_probe VALUES ('kept')`);
    });

    const { kept, migrations, cell, exportedRows, listedRows } = await onEmbeddedDatabase(
      embedded(),
      async (again) => {
        const exported = exportSql({ search: 'AB-CD' }, { form: 'csv-lines', chunk: { limit: 10 } });
        const listed = listingSql({ search: 'AB-CD' }, { limit: 10, offset: 0 });
        return {
          kept: await again.query<{ note: string }>('SELECT note FROM restart_probe'),
          migrations: await again.query<{ name: string }>('SELECT name FROM migrations'),
          // The statements PostgreSQL builds the export's CSV and the code search with run here too.
          cell: await again.query<{ cell: string }>(`SELECT ${csvCellSql('$1::text')} AS cell`, ['=1,2']),
          exportedRows: (await again.query(exported.text, exported.values)).rows,
          listedRows: (await again.query(listed.text, listed.values)).rows,
        };
      },
    );
    expect(kept.rows).toEqual([{ note: 'kept' }]);
    expect(migrations.rows.map((row) => row.name)).toEqual(backendMigrations.map((m) => m.name));
    expect(cell.rows).toEqual([{ cell: `"'=1,2"` }]);
    expect(exportedRows).toEqual([]);
    expect(listedRows).toEqual([expect.objectContaining({ total: 0, id: null })]);
  });
});
