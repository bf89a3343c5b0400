import { runMigrateCommand } from '@rt/database';
import { onEmbeddedDatabase, temporaryFolder } from '@rt/testing';
import { SEARCH_EXTENSIONS } from '../src/database/extensions';
import { searchMigrations } from '../src/database/migrations';

/**
 * Runs whatever TEST_DATABASE_URL says, so CI migrates the embedded database (PGlite,
 * PostgreSQL 18) as well as the real server: the migrations must run on both.
 */
describe('search migrations on the embedded database', () => {
  const data = temporaryFolder('rt-search-embedded-');
  const embedded = () => ({ dataDir: data.path, extensions: SEARCH_EXTENSIONS });

  it('migrates, computes cosine distances, and keeps its data across a restart', async () => {
    await runMigrateCommand({ app: 'search', ...embedded(), migrations: searchMigrations });

    await onEmbeddedDatabase(embedded(), async (client) => {
      const { rows } = await client.query<{ distance: number }>(
        `SELECT '[1,0,0]'::vector <=> '[0,1,0]'::vector AS distance`,
      );
      expect(rows[0].distance).toBeCloseTo(1, 6);
      await client.query('CREATE TABLE restart_probe (note text)');
      await client.query(`INSERT INTO restart_probe VALUES ('kept')`);
    });

    const { kept, migrations } = await onEmbeddedDatabase(embedded(), async (again) => ({
      kept: await again.query<{ note: string }>('SELECT note FROM restart_probe'),
      migrations: await again.query<{ name: string }>('SELECT name FROM migrations'),
    }));
    expect(kept.rows).toEqual([{ note: 'kept' }]);
    expect(migrations.rows.map((row) => row.name)).toEqual(searchMigrations.map((m) => m.name));
  });
});
