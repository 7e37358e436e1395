import { sql } from 'kysely';
import type { Db, DialectSeam } from './dialect.js';
import { migrations as allMigrations, type Migration } from './migrations/index.js';

/**
 * Applies the pending numbered migrations in one transaction. On PostgreSQL an advisory lock
 * taken first makes a second engine starting at the same moment wait, then find nothing to do.
 */
export async function migrateToLatest(
  db: Db,
  dialect: DialectSeam,
  schema: string | null,
  now: () => number,
  migrations: readonly Migration[] = allMigrations,
): Promise<number[]> {
  return db.transaction().execute(async (trx) => {
    await dialect.lockForTransaction(trx, 'schema-migration');
    if (schema) await sql`create schema if not exists ${sql.id(schema)}`.execute(trx);
    await trx.schema
      .createTable('trellis_schema_migration')
      .ifNotExists()
      .addColumn('version', 'integer', (c) => c.primaryKey())
      .addColumn('name', 'varchar(255)', (c) => c.notNull())
      .addColumn('applied_at', 'bigint', (c) => c.notNull())
      .execute();
    const applied = new Set(
      (await trx.selectFrom('trellis_schema_migration').select('version').execute()).map((row) => row.version),
    );
    const pending = migrations.filter((migration) => !applied.has(migration.version));
    // One run, one timestamp: the schema log tells the migrations that created the schema from later ones.
    const appliedAt = now();
    for (const migration of pending) {
      await migration.up(trx, dialect);
      await trx
        .insertInto('trellis_schema_migration')
        .values({ version: migration.version, name: migration.name, applied_at: appliedAt })
        .execute();
    }
    return pending.map((migration) => migration.version);
  });
}
