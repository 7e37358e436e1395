import type { Compilable, QueryCreator, Transaction } from 'kysely';
import type { DialectSeam } from './dialect.js';
import type { StoreSchema } from './schema.js';

/** One write statement, built on whatever query creator runs it (the transaction, or a CTE chain). */
export type Write = (db: QueryCreator<StoreSchema>) => Compilable & { execute(): Promise<unknown> };

/**
 * The writes as data-modifying CTEs in front of whatever statement is built on the returned creator.
 * They all see the database as it was before the statement, so they must touch distinct rows and
 * read nothing another of them writes; the order PostgreSQL applies them in then does not matter.
 */
export function withWrites(trx: Transaction<StoreSchema>, writes: readonly Write[], prefix = 'w'): QueryCreator<StoreSchema> {
  let chain: QueryCreator<StoreSchema> = trx;
  writes.forEach((write, i) => {
    chain = chain.with(`${prefix}_${i}`, (db) => write(db as QueryCreator<StoreSchema>) as never) as unknown as QueryCreator<StoreSchema>;
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
  await writes.at(-1)!(withWrites(trx, writes.slice(0, -1), 'history')).execute();
}
