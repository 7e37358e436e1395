import { sql, type Compilable, type OperationNodeSource, type QueryCreator, type RawBuilder, type Transaction } from 'kysely';
import type { DialectSeam } from './dialect.js';
import type { StoreSchema } from './schema.js';

type Statement = Compilable & OperationNodeSource & { execute(): Promise<unknown> };

/**
 * One write statement: made on whatever query creator runs it (the transaction, or a combined
 * statement) when the statement is built, or given ready. SQL text (insertRows, updateRows, sql``)
 * is cheaper to build than the query builder's form, for statements that run on every instance end;
 * the text must be valid on both stores.
 */
export type Write = ((db: QueryCreator<StoreSchema>) => Statement | RawBuilder<unknown>) | RawBuilder<unknown>;

function statementOf(write: Write, trx: Transaction<StoreSchema>): Statement | RawBuilder<unknown> {
  return typeof write === 'function' ? write(trx) : write;
}

const isRaw = (statement: Statement | RawBuilder<unknown>): statement is RawBuilder<unknown> => 'isRawBuilder' in statement;

/** Values for insertRows / updateRows: plain values are parameters, SQL (sql``) is inlined. */
type Row = Readonly<Record<string, unknown>>;

/**
 * `insert into <table> (…) values (…), …` as SQL text. The rows must have the same columns, every
 * one of them given (undefined is written as null: SQLite has no DEFAULT in VALUES).
 */
export function insertRows(table: keyof StoreSchema, rows: readonly Row[]): RawBuilder<unknown> {
  const columns = Object.keys(rows[0]);
  const values = rows.map((row) => sql`(${sql.join(columns.map((column) => row[column] ?? null))})`);
  return sql`insert into ${sql.raw(table)} (${sql.raw(columns.map((column) => `"${column}"`).join(', '))}) values ${sql.join(values)}`;
}

/** `update <table> set … where <where>` as SQL text; undefined changes are left out. */
export function updateRows(table: keyof StoreSchema, changes: Row, where: RawBuilder<unknown>): RawBuilder<unknown> {
  const set = Object.entries(changes)
    .filter(([, value]) => value !== undefined)
    .map(([column, value]) => sql`${sql.raw(`"${column}"`)} = ${value}`);
  return sql`update ${sql.raw(table)} set ${sql.join(set)} where ${where}`;
}

/**
 * PostgreSQL: the writes as data-modifying CTEs (`with w_0 as (…), …`), then `ctes` (named SQL of the
 * caller's own), then `select`: one SQL template, compiled in one pass.
 * The writes all see the database as it was before the statement, so they must touch distinct rows
 * and read nothing another of them writes; the order PostgreSQL applies them in then does not matter.
 */
export function writesStatement(trx: Transaction<StoreSchema>, writes: readonly Write[], tail: { ctes?: readonly RawBuilder<unknown>[]; select: RawBuilder<unknown> }): RawBuilder<unknown> {
  const ctes = writes.map((write, i) => sql`${sql.raw(`w_${i}`)} as (${statementOf(write, trx)})`).concat(tail.ctes ?? []);
  return ctes.length === 0 ? tail.select : sql`with ${sql.join(ctes, sql`, `)} ${tail.select}`;
}

/**
 * Independent writes (see withWrites) in as few round trips as the store allows: one statement on
 * PostgreSQL, one after the other on SQLite (in process, nothing to save).
 */
export async function executeWrites(trx: Transaction<StoreSchema>, dialect: DialectSeam, writes: readonly Write[]): Promise<void> {
  if (writes.length === 0) return;
  if (dialect.name !== 'postgres' || writes.length === 1) {
    for (const write of writes) {
      const statement = statementOf(write, trx);
      await (isRaw(statement) ? statement.execute(trx) : statement.execute());
    }
    return;
  }
  await writesStatement(trx, writes, { select: sql`select 1` }).execute(trx);
}
