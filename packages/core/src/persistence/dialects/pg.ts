import pg from 'pg';
import { Kysely, PostgresDialect, type PostgresPool, type PostgresPoolClient } from 'kysely';
import type { StoreSchema } from '../schema.js';
import { GroupCommit, type GroupConnection } from './pg-group-commit.js';

/** A checkout of this pool (assignable to the group commit's Checkout). */
interface PreparingCheckout {
  connection: PreparingConnection;
  release(error?: Error): void;
}

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

/**
 * A pooled client that prepares the statement texts that recur on it. The engine sends the same few
 * hundred texts over and over; sent as unnamed statements, each one is parsed and planned again and
 * its whole text crosses the socket every time. A text seen again on a connection is therefore
 * prepared there under a name (node-postgres then sends only Bind/Execute). Bounded per connection;
 * texts without parameters (BEGIN, COMMIT) stay simple queries.
 */
class PreparingConnection implements GroupConnection {
  private readonly seen = new Map<string, number>();
  private readonly prepared = new Map<string, string>();
  /** node-postgres records the statements it has parsed on the connection. */
  private readonly parsed: Record<string, string>;

  constructor(readonly client: pg.PoolClient) {
    this.parsed = (client as unknown as { connection?: { parsedStatements?: Record<string, string> } }).connection?.parsedStatements ?? {};
  }

  send(sql: string, parameters: ReadonlyArray<unknown>): Promise<pg.QueryResult> {
    if (parameters.length === 0) return this.client.query(sql);
    let name = this.prepared.get(sql);
    if (!name) {
      const seen = (this.seen.get(sql) ?? 0) + 1;
      if (this.seen.size > 10_000) this.seen.clear();
      this.seen.set(sql, seen);
      if (seen >= PREPARE_AFTER) name = this.nameNew(sql);
    }
    return this.client.query(name ? { name, text: sql, values: [...parameters] } : { text: sql, values: [...parameters] });
  }

  statementName(sql: string): { name: string; parsed: boolean } | undefined {
    const name = this.prepared.get(sql) ?? this.nameNew(sql);
    return name === undefined ? undefined : { name, parsed: this.parsed[name] === sql };
  }

  /** A name for `sql` to be prepared under here; undefined when the connection holds as many as it may. */
  private nameNew(sql: string): string | undefined {
    if (this.prepared.size >= MAX_PREPARED) return undefined;
    const name = `trellis_${this.prepared.size}`;
    this.prepared.set(sql, name);
    return name;
  }
}

/**
 * Each checkout's transaction is a LazyTransaction (below), and the checkout takes a client from the
 * pool only when its transaction first sends something: a command whose only write is a deferred
 * statement (an external task's complete that ends its instance, from rows the fetch returned) holds
 * no client at all, and its statement is committed by the GroupCommit with the others ready then.
 */
function preparing(pool: pg.Pool): PostgresPool {
  const connections = new WeakMap<pg.PoolClient, PreparingConnection>();
  const checkout = async (): Promise<PreparingCheckout> => {
    const client = await pool.connect();
    let connection = connections.get(client);
    if (!connection) connections.set(client, (connection = new PreparingConnection(client)));
    return { connection, release: (error) => client.release(error) };
  };
  const group = new GroupCommit(checkout);
  return {
    async connect() {
      let held: PreparingCheckout | null = null;
      let taking: Promise<PreparingCheckout> | null = null;
      const connection = async (): Promise<PreparingCheckout> => held ?? (await (taking ??= checkout().then((taken) => (held = taken))));
      const transaction = new LazyTransaction(
        async (sql, parameters) => (await connection()).connection.send(sql, parameters),
        (sql, parameters) => group.commit(sql, parameters, held?.connection ?? null),
      );
      return {
        query: ((sql: string, parameters: ReadonlyArray<unknown>) => transaction.query(sql, parameters)) as unknown as PostgresPoolClient['query'],
        release: () => {
          const taken = taking;
          held = null;
          taking = null;
          // A failed checkout already failed the statement that asked for it.
          taken?.then((checkedOut) => checkedOut.release(), () => undefined);
        },
      };
    },
    end: () => pool.end(),
  };
}

/**
 * Marks a write that may wait for the end of its transaction (its result is not read; it checks
 * itself and fails as a whole). Alone in its transaction it runs without BEGIN / COMMIT, committed
 * together with the other such statements ready at the same moment (`GroupCommit`).
 */
export const DEFERRABLE = '/* trellis:deferrable */ ';
/** Marks the only write its transaction will make; when nothing was written before, it runs without BEGIN / COMMIT. */
export const SOLITARY = '/* trellis:solitary */ ';
/**
 * Marks a check (a select that fails when rows read earlier, outside this transaction, have changed
 * since) that must pass before the transaction writes: it is sent right after BEGIN, unless a
 * statement marked GUARDED_DEFERRABLE, which makes the same check itself, comes first.
 */
export const GUARD = '/* trellis:guard */ ';
/**
 * DEFERRABLE, and the statement carries the pending GUARD's check itself, turned on by its first
 * parameter: sent after that check was made in its transaction (other writes came first), the
 * statement gets false there, since what the check compares may have been changed by those writes.
 */
export const GUARDED_DEFERRABLE = '/* trellis:deferrable guarded */ ';

const NO_ROWS = { command: '', rowCount: 0, rows: [], fields: [], oid: 0 } as unknown as pg.QueryResult;
const LOCKING_OR_SIDE_EFFECTS = /\b(for\s+(update|share|no\s+key\s+update|key\s+share)|pg_advisory\w*|pg_notify|nextval|setval|set_config|txid_current\w*|pg_current_xact_id)\b/i;

/**
 * BEGIN is sent only when the transaction first writes or locks. Under READ COMMITTED (the engine's
 * level) a plain SELECT sees the same thing inside a transaction and outside it, so the reads before
 * the first write go alone; a command that then writes once — a marked statement — needs neither
 * BEGIN nor COMMIT: two of the four round trips of an external task's fetch or complete.
 */
class LazyTransaction {
  private state: 'none' | 'pending' | 'open' | 'solitary-done' = 'none';
  private deferred: Statement | null = null;
  private guard: Statement | null = null;
  /** A GUARD statement was sent in this transaction. */
  private guardChecked = false;

  constructor(
    private readonly send: (sql: string, parameters: ReadonlyArray<unknown>) => Promise<pg.QueryResult>,
    /** Commits a deferred statement that is its transaction's only write (group commit). */
    private readonly commitDeferred: (sql: string, parameters: ReadonlyArray<unknown>) => Promise<void>,
  ) {}

  async query(sql: string, parameters: ReadonlyArray<unknown>): Promise<pg.QueryResult> {
    const command = sql.length <= 8 ? sql.toLowerCase() : '';
    if (command === 'begin') {
      this.state = 'pending';
      return NO_ROWS;
    }
    if (this.state === 'none') return this.send(sql, parameters);
    if (command === 'commit' || command === 'rollback') return this.end(command);
    if (sql.startsWith(GUARD)) {
      if (this.state !== 'pending') return this.sendGuard(sql, parameters);
      this.guard = { sql, parameters };
      return NO_ROWS;
    }
    if (sql.startsWith(GUARDED_DEFERRABLE)) {
      this.guard = null;
      if (this.deferred === null && this.state === 'pending') {
        this.deferred = { sql, parameters };
        return NO_ROWS;
      }
      if (this.guardChecked) parameters = [false, ...parameters.slice(1)];
    }
    if (this.state === 'open') return this.send(sql, parameters);
    const read = /^\s*select\b/i.test(sql) && !LOCKING_OR_SIDE_EFFECTS.test(sql);
    if (this.deferred === null && this.state === 'pending') {
      if (read) return this.send(sql, parameters);
      if (sql.startsWith(DEFERRABLE)) {
        this.deferred = { sql, parameters };
        return NO_ROWS;
      }
      if (sql.startsWith(SOLITARY) && this.guard === null) {
        this.state = 'solitary-done';
        return this.send(sql, parameters);
      }
    }
    if (this.state === 'solitary-done') {
      if (read) return this.send(sql, parameters);
      throw new Error(`a transaction wrote after its solitary write: ${sql.slice(0, 80)}`);
    }
    await this.open();
    return this.send(sql, parameters);
  }

  private async open(): Promise<void> {
    await this.send('begin', []);
    this.state = 'open';
    const { deferred, guard } = this;
    this.deferred = null;
    this.guard = null;
    if (guard) await this.sendGuard(guard.sql, guard.parameters);
    if (deferred) await this.send(deferred.sql, deferred.parameters);
  }

  private async sendGuard(sql: string, parameters: ReadonlyArray<unknown>): Promise<pg.QueryResult> {
    const result = await this.send(sql, parameters);
    this.guardChecked = true;
    return result;
  }

  private async end(command: 'commit' | 'rollback'): Promise<pg.QueryResult> {
    if (command === 'commit' && this.state === 'pending' && this.deferred && this.guard) await this.open();
    const { state, deferred } = this;
    this.state = 'none';
    this.deferred = null;
    this.guard = null;
    this.guardChecked = false;
    if (state === 'open') return this.send(command, []);
    if (command === 'commit' && deferred) await this.commitDeferred(deferred.sql, deferred.parameters);
    return NO_ROWS;
  }
}

interface Statement {
  sql: string;
  parameters: ReadonlyArray<unknown>;
}
