import { ParensNode, RawNode, sql, type Compilable, type OperationNodeSource, type Kysely, type QueryCreator, type RawBuilder, type Transaction } from 'kysely';
import type { DialectSeam } from './dialect.js';
import type { StoreSchema } from './schema.js';

/** One write statement, built on whatever query creator runs it (the transaction, or a CTE chain). */
export type Write = (db: QueryCreator<StoreSchema>) => Compilable & OperationNodeSource & { execute(): Promise<unknown> };

/**
 * A write given as SQL text: cheaper to build than its query-builder form, for statements that run
 * on every instance end. The text must be valid on both stores.
 */
export function rawWrite(query: RawBuilder<unknown>): Write {
  return (db) => {
    const executor = db as unknown as Kysely<StoreSchema>;
    return { toOperationNode: () => query.toOperationNode(), compile: () => query.compile(executor), execute: () => query.execute(executor) } as ReturnType<Write>;
  };
}

/**
 * The writes as data-modifying CTEs in front of whatever statement is built on the returned creator.
 * They all see the database as it was before the statement, so they must touch distinct rows and
 * read nothing another of them writes; the order PostgreSQL applies them in then does not matter.
 */
export function withWrites(trx: Transaction<StoreSchema>, writes: readonly Write[], prefix = 'w'): QueryCreator<StoreSchema> {
  let chain: QueryCreator<StoreSchema> = trx;
  writes.forEach((write, i) => {
    chain = chain.with(`${prefix}_${i}`, (db) => {
      const node = write(db as QueryCreator<StoreSchema>).toOperationNode();
      // A query node brings its own parentheses into a CTE; SQL text (rawWrite) does not.
      return { toOperationNode: () => (RawNode.is(node) ? ParensNode.create(node) : node) } as never;
    }) as unknown as QueryCreator<StoreSchema>;
  });
  return chain;
}

/**
 * Independent writes (see withWrites) in as few round trips as the store allows: one statement on
 * PostgreSQL, one after the other on SQLite (in process, nothing to save).
 */
export async function executeWrites(trx: Transaction<StoreSchema>, dialect: DialectSeam, writes: readonly Write[]): Promise<void> {
  if (writes.length === 0) return;
  if (dialect.name !== 'postgres' || writes.length === 1) {
    for (const write of writes) await write(trx).execute();
    return;
  }
  await withWrites(trx, writes, 'history').selectNoFrom(sql<number>`1`.as('done')).execute();
}
