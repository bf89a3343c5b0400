import { DataSource, Migration, MigrationExecutor } from 'typeorm';

/**
 * Runs pending migrations while holding a PostgreSQL advisory lock, so replicas that start
 * together migrate once: the others wait, then find nothing pending. The lock and the migrations
 * share one connection, which also suits the embedded database's single session.
 */
export async function runMigrationsUnderLock(dataSource: DataSource, lockName: string): Promise<Migration[]> {
  const queryRunner = dataSource.createQueryRunner('master');
  await queryRunner.connect();
  try {
    await queryRunner.query('SELECT pg_advisory_lock(hashtext($1))', [lockName]);
    try {
      const executor = new MigrationExecutor(dataSource, queryRunner);
      executor.transaction = 'all';
      return await executor.executePendingMigrations();
    } finally {
      await queryRunner.query('SELECT pg_advisory_unlock(hashtext($1))', [lockName]);
    }
  } finally {
    await queryRunner.release();
  }
}
