import pg from 'pg';
import { Kysely, PostgresDialect } from 'kysely';
import type { StoreSchema } from '../schema.js';

export interface PostgresOptions {
  connectionString: string;
  /** Schema holding Trellis' tables (search_path); created when missing. Default `public`. */
  schema?: string;
  poolSize?: number;
}

const INT8 = 20;
const NUMERIC = 1700;

// Epoch-millisecond timestamps and counts are int8; they fit a JS number, so read them as one.
const types = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    if (oid === INT8 || oid === NUMERIC) return (value: string) => Number(value);
    return pg.types.getTypeParser(oid, format);
  },
};

/** Opens a pool on a PostgreSQL database; several engine processes may share it. */
export function openPostgres(options: PostgresOptions): Kysely<StoreSchema> {
  const schema = options.schema ?? 'public';
  if (!/^[a-z_][a-z0-9_]*$/.test(schema)) throw new Error(`Invalid PostgreSQL schema name '${schema}'`);
  const pool = new pg.Pool({
    connectionString: options.connectionString,
    max: options.poolSize ?? 10,
    types,
    options: `-c search_path=${schema}`,
  });
  return new Kysely<StoreSchema>({ dialect: new PostgresDialect({ pool }) });
}
