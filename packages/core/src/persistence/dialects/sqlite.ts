import SqliteDatabase from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { Kysely, SqliteDialect } from 'kysely';
import type { StoreSchema } from '../schema.js';

/** Opens the embedded store: a file (WAL journal) or, for ':memory:', a private in-memory database. */
export function openSqlite(filename: string): Kysely<StoreSchema> {
  if (filename !== ':memory:') mkdirSync(dirname(filename), { recursive: true });
  const database = new SqliteDatabase(filename);
  if (filename !== ':memory:') database.pragma('journal_mode = WAL');
  database.pragma('synchronous = NORMAL');
  database.pragma('foreign_keys = ON');
  // Camunda's LIKE filters are case-sensitive (as on PostgreSQL); SQLite's LIKE is not by default.
  database.pragma('case_sensitive_like = ON');
  database.pragma('busy_timeout = 5000');
  return new Kysely<StoreSchema>({ dialect: new SqliteDialect({ database }) });
}
