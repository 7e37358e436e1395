import { createRequire } from 'node:module';
import pg from 'pg';

// node-postgres' own conversion of parameter values (Date, Buffer, arrays, JSON) for Bind messages.
const { prepareValue } = createRequire(import.meta.url)('pg/lib/utils') as { prepareValue(value: unknown): unknown };

/** A pooled PostgreSQL connection (the part used here). */
export interface GroupConnection {
  readonly client: pg.ClientBase;
  /** Sends one statement (its own transaction when none is open). */
  send(sql: string, parameters: ReadonlyArray<unknown>): Promise<unknown>;
  /**
   * The name `sql` is prepared under on this connection, or is to be (then `parsed` is false and the
   * group prepares it); undefined: it goes as an unnamed statement.
   */
  statementName(sql: string): { name: string; parsed: boolean } | undefined;
}

/** A connection taken from the pool, until released. */
export interface Checkout {
  connection: GroupConnection;
  /** Back to the pool; with the error that broke the connection, out of it. */
  release(error?: Error): void;
}

interface Waiting {
  sql: string;
  parameters: ReadonlyArray<unknown>;
  /** The connection its command holds, if it holds one. */
  held: GroupConnection | null;
  resolve(): void;
  reject(error: unknown): void;
}

/** Statements sent in one round trip at most. */
const MAX_GROUP = 32;

/**
 * Group commit for statements that are their command's only write (the ended-instance statement of
 * an external task's complete, say). Those that become ready in the same turn of the event loop go
 * to PostgreSQL in one round trip on one connection — Bind/Execute each, one Sync — which runs them
 * in one implicit transaction: one commit and one WAL flush for all of them instead of one per
 * command. Each statement checks itself and fails as a whole, so when any of them fails the
 * transaction is rolled back and every statement of the group is sent again alone: each command
 * then gets its own outcome, as if it had never been grouped. A statement not yet prepared on the
 * sending connection is prepared (or sent unnamed) in the same round trip.
 *
 * The group is sent on a connection one of its commands holds, or else on one taken from the pool
 * for it: commands waiting here without a connection then hold none from the pool.
 */
export class GroupCommit {
  private waiting: Waiting[] = [];

  constructor(private readonly checkout: () => Promise<Checkout>) {}

  commit(sql: string, parameters: ReadonlyArray<unknown>, held: GroupConnection | null): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      if (this.waiting.push({ sql, parameters, held, resolve, reject }) === 1) setImmediate(() => this.flush());
    });
  }

  private flush(): void {
    const waiting = this.waiting;
    this.waiting = [];
    for (let start = 0; start < waiting.length; start += MAX_GROUP) this.send(waiting.slice(start, start + MAX_GROUP));
  }

  private send(waiting: Waiting[]): void {
    const group: Array<{ item: Waiting; values: unknown[] }> = [];
    for (const item of waiting) {
      try {
        group.push({ item, values: item.parameters.map(prepareValue) });
      } catch {
        this.alone(item); // fails there with its own error
      }
    }
    if (group.length === 0) return;
    if (group.length === 1) return this.alone(group[0].item);
    const holder = group.find(({ item }) => item.held)?.item.held;
    const taking = holder ? Promise.resolve<Checkout>({ connection: holder, release: () => undefined }) : this.checkout();
    taking.then(
      ({ connection, release }) =>
        connection.client.query(
          new Pipeline(
            connection,
            group.map(({ item, values }) => ({ sql: item.sql, values })),
            (error) => {
              const statementFailed = error instanceof pg.DatabaseError && error.severity === 'ERROR';
              release(error === null || statementFailed ? undefined : (error as Error));
              if (error === null) for (const { item } of group) item.resolve();
              // One statement failed and the group was rolled back: each goes again alone for its own result.
              else if (statementFailed) for (const { item } of group) this.alone(item);
              // The connection failed: whether the commit happened is unknown, as for any statement sent alone.
              else for (const { item } of group) item.reject(error);
            },
          ) as unknown as pg.QueryConfig,
        ),
      (error: unknown) => {
        for (const { item } of group) item.reject(error);
      },
    );
  }

  private alone(item: Waiting): void {
    const sent = item.held
      ? item.held.send(item.sql, item.parameters)
      : this.checkout().then(({ connection, release }) => connection.send(item.sql, item.parameters).finally(release));
    sent.then(() => item.resolve(), item.reject);
  }
}

interface PipelinedStatement {
  sql: string;
  /** Parameter values already converted for the wire. */
  values: unknown[];
}

/** What node-postgres' connection offers a submittable query (the part used here). */
interface ProtocolConnection {
  stream: { cork?(): void; uncork?(): void };
  parse(message: { text: string; name?: string }): void;
  bind(message: { statement?: string; values: ReadonlyArray<unknown> }): void;
  execute(message: { portal: string; rows: number }): void;
  sync(): void;
}

/**
 * A node-postgres submittable query (the client queues it like any query and hands it the
 * connection when its turn comes) that sends several statements behind one Sync and reports once:
 * at ReadyForQuery, or at the first error (PostgreSQL then skips the rest and rolls back).
 *
 * A statement prepared on the connection is only bound; one of its texts not yet prepared there is
 * parsed under the connection's name for it, which node-postgres records as parsed when PostgreSQL
 * confirms (a query's `name` and `text`: one per round trip); any other goes as the unnamed statement.
 */
class Pipeline {
  /** The statement this round trip prepares (read by node-postgres at ParseComplete). */
  readonly name: string | undefined;
  readonly text: string | undefined;
  private readonly messages: Array<{ parse?: { text: string; name?: string }; name: string | undefined; values: unknown[] }> = [];
  private settled = false;

  constructor(
    connection: GroupConnection,
    statements: PipelinedStatement[],
    private readonly callback: (error: unknown) => void,
  ) {
    for (const { sql, values } of statements) {
      const prepared = connection.statementName(sql);
      if (prepared?.parsed || (prepared && this.text === sql)) this.messages.push({ name: prepared.name, values });
      else if (prepared && this.name === undefined) {
        this.name = prepared.name;
        this.text = sql;
        this.messages.push({ parse: { text: sql, name: prepared.name }, name: prepared.name, values });
      } else this.messages.push({ parse: { text: sql }, name: undefined, values });
    }
  }

  submit(connection: ProtocolConnection): void {
    connection.stream.cork?.();
    try {
      for (const { parse, name, values } of this.messages) {
        if (parse) connection.parse(parse);
        connection.bind({ statement: name, values });
        connection.execute({ portal: '', rows: 0 });
      }
      connection.sync();
    } finally {
      connection.stream.uncork?.();
    }
  }

  handleRowDescription(): void {}
  handleDataRow(): void {}
  handleCommandComplete(): void {}
  handleEmptyQuery(): void {}
  handlePortalSuspended(): void {}
  handleCopyInResponse(): void {}
  handleCopyData(): void {}

  handleError(error: unknown): void {
    this.settle(error);
  }

  handleReadyForQuery(): void {
    this.settle(null);
  }

  private settle(error: unknown): void {
    if (this.settled) return;
    this.settled = true;
    this.callback(error);
  }
}
