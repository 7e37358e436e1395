import pg from 'pg';
import { Kysely, PostgresDialect, type PostgresPool, type PostgresPoolClient } from 'kysely';
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
  return new Kysely<StoreSchema>({ dialect: new PostgresDialect({ pool: preparing(pool) }) });
}

/** A statement text seen this often on one connection is prepared there (named) and reused. */
const PREPARE_AFTER = 2;
/** Prepared statements per connection at most (each holds a plan in its server process). */
const MAX_PREPARED = 256;

interface ConnectionStatements {
  seen: Map<string, number>;
  prepared: Map<string, string>;
}

/**
 * The engine sends the same few hundred statement texts over and over. Sent as unnamed statements,
 * each one is parsed and planned again and its whole text crosses the socket every time; a text that
 * recurs on a connection is therefore prepared there under a name (node-postgres then sends only
 * Bind/Execute). Bounded per connection; texts without parameters (BEGIN, COMMIT) stay simple queries.
 */
function preparing(pool: pg.Pool): PostgresPool {
  const connections = new WeakMap<pg.PoolClient, ConnectionStatements>();
  return {
    async connect() {
      const client = await pool.connect();
      let statements = connections.get(client);
      if (!statements) connections.set(client, (statements = { seen: new Map(), prepared: new Map() }));
      const known = statements;
      return {
        query: ((sql: string, parameters: ReadonlyArray<unknown>) => {
          if (parameters.length === 0) return client.query(sql);
          let name = known.prepared.get(sql);
          if (!name && known.prepared.size < MAX_PREPARED) {
            const seen = (known.seen.get(sql) ?? 0) + 1;
            if (known.seen.size > 10_000) known.seen.clear();
            known.seen.set(sql, seen);
            if (seen >= PREPARE_AFTER) known.prepared.set(sql, (name = `trellis_${known.prepared.size}`));
          }
          return client.query(name ? { name, text: sql, values: [...parameters] } : { text: sql, values: [...parameters] });
        }) as unknown as PostgresPoolClient['query'],
        release: () => client.release(),
      };
    },
    end: () => pool.end(),
  };
}
