import { sql, type Kysely } from 'kysely';
import type { DialectSeam } from './dialect.js';
import { postgresSeam, sqliteSeam } from './dialect.js';
import { openPostgres } from './dialects/pg.js';
import { openSqlite } from './dialects/sqlite.js';
import { migrateToLatest } from './migrator.js';
import type { StoreSchema } from './schema.js';

/** Where the engine keeps its state. */
export type StoreConfig =
  | { type: 'sqlite'; filename: string }
  | { type: 'postgres'; connectionString: string; schema?: string; poolSize?: number };

/** The opened database: one Kysely instance, the dialect seam, and its lifecycle. */
export class Store {
  private constructor(
    readonly db: Kysely<StoreSchema>,
    readonly dialect: DialectSeam,
    private readonly schema: string | null,
  ) {}

  /** Opens the database named by the config (nothing is created yet). */
  static open(config: StoreConfig): Store {
    if (config.type === 'sqlite') return new Store(openSqlite(config.filename), sqliteSeam, null);
    return new Store(openPostgres(config), postgresSeam, config.schema ?? null);
  }

  /** Brings the schema up to date; returns the versions applied now. */
  migrate(now: () => number): Promise<number[]> {
    return migrateToLatest(this.db, this.dialect, this.schema, now);
  }

  /** PostgreSQL NOTIFY on a channel (the cross-node event relay); outside any transaction. */
  async notify(channel: string, payload: string): Promise<void> {
    await sql`select pg_notify(${channel}, ${payload})`.execute(this.db);
  }

  /** Releases the pool or file handle. */
  async close(): Promise<void> {
    await this.db.destroy();
  }
}
