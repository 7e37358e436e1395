import SqliteDatabase from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { Kysely, SqliteDialect, type SqliteDatabase as SqliteDialectDatabase } from 'kysely';
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
  return new Kysely<StoreSchema>({ dialect: new SqliteDialect({ database: withStatementCache(database) }) });
}

/** How many prepared statements the cache keeps before it starts over. */
const STATEMENT_CACHE_SIZE = 2_000;

/**
 * Kysely prepares every query anew, and preparing costs SQLite more than running a small statement.
 * The engine issues the same few hundred SQL texts over and over, so prepared statements are kept by
 * text and reused (better-sqlite3 statements are reusable; SQLite re-prepares one itself after a
 * schema change). A cache that overflows (ever-new texts, e.g. IN lists of every length) starts over.
 */
function withStatementCache(database: SqliteDatabase.Database): SqliteDialectDatabase {
  const statements = new Map<string, SqliteDatabase.Statement>();
  return {
    close: () => database.close(),
    prepare(sql: string) {
      let statement = statements.get(sql);
      if (!statement) {
        if (statements.size >= STATEMENT_CACHE_SIZE) statements.clear();
        statement = database.prepare(sql);
        statements.set(sql, statement);
      }
      return statement;
    },
  };
}
