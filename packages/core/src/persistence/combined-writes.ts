import type { Compilable, OperationNodeSource, QueryCreator, RawBuilder, Transaction } from 'kysely';
import type { DialectSeam } from './dialect.js';
import type { StoreSchema } from './schema.js';
import { fromCompiled, joinText, rawText, SqlText, sqlText } from './sql-text.js';

type Statement = Compilable & OperationNodeSource & { execute(): Promise<unknown> };

/**
 * One write statement: SQL text (insertRows, updateRows, sqlText), or made on whatever query creator
 * runs it when the statement is built. SQL text is much cheaper to build, for statements that run on
 * every instance end; it must be valid on both stores.
 */
export type Write = SqlText | ((db: QueryCreator<StoreSchema>) => Statement | RawBuilder<unknown> | SqlText) | RawBuilder<unknown>;

/** Values for insertRows / updateRows: plain values are parameters, SqlText is inlined. */
type Row = Readonly<Record<string, unknown>>;

/** Quoted column names as SqlText, by column (the names are the engine's own: a bounded set). */
const QUOTED = new Map<string, SqlText>();
const quoted = (column: string): SqlText => {
  let text = QUOTED.get(column);
  if (!text) QUOTED.set(column, (text = rawText(`"${column}"`)));
  return text;
};
/** The column list of the last insert into each table (rows of one table mostly have the same columns). */
const COLUMN_LISTS = new Map<string, { columns: string[]; text: SqlText }>();

function columnList(table: string, columns: string[]): SqlText {
  const last = COLUMN_LISTS.get(table);
  if (last && last.columns.length === columns.length && last.columns.every((column, i) => column === columns[i])) return last.text;
  const text = rawText(columns.map((column) => quoted(column).text).join(', '));
  COLUMN_LISTS.set(table, { columns, text });
  return text;
}

/**
 * `insert into <table> (…) values (…), …` as SQL text. The rows must have the same columns, every
 * one of them given (undefined is written as null: SQLite has no DEFAULT in VALUES).
 */
export function insertRows(table: keyof StoreSchema, rows: readonly Row[]): SqlText {
  const columns = Object.keys(rows[0]);
  const values = joinText(rows.map((row) => sqlText`(${joinText(columns.map((column) => row[column] ?? null))})`));
  return sqlText`insert into ${rawText(table)} (${columnList(table, columns)}) values ${values}`;
}

/** `update <table> set … where <where>` as SQL text; undefined changes are left out. */
export function updateRows(table: keyof StoreSchema, changes: Row, where: SqlText): SqlText {
  const set = Object.entries(changes)
    .filter(([, value]) => value !== undefined)
    .map(([column, value]) => sqlText`${quoted(column)} = ${value}`);
  return sqlText`update ${rawText(table)} set ${joinText(set)} where ${where}`;
}

/** PostgreSQL: a write as SqlText (the query builder's statements compiled). */
function textOf(write: Write, trx: Transaction<StoreSchema>): SqlText {
  const statement = typeof write === 'function' ? write(trx) : write;
  if (statement instanceof SqlText) return statement;
  return fromCompiled('isRawBuilder' in statement ? statement.compile(trx) : statement.compile(), 'postgres');
}

const CTE_NAMES: SqlText[] = [];
const cteName = (index: number): SqlText => (CTE_NAMES[index] ??= rawText(`w_${index}`));

/**
 * PostgreSQL: `first` (named SQL of the caller's own, whose parameters then come first), the writes
 * as data-modifying CTEs (`w_0 as (…), …`), then `ctes` (named SQL of the caller's own), then `select`.
 * The writes all see the database as it was before the statement, so they must touch distinct rows
 * and read nothing another of them writes; the order PostgreSQL applies them in then does not matter.
 */
export function writesStatement(
  trx: Transaction<StoreSchema>,
  writes: readonly Write[],
  around: { first?: readonly SqlText[]; ctes?: readonly SqlText[]; select: SqlText },
): SqlText {
  const ctes = [...(around.first ?? []), ...writes.map((write, i) => sqlText`${cteName(i)} as (${textOf(write, trx)})`), ...(around.ctes ?? [])];
  return ctes.length === 0 ? around.select : sqlText`with ${joinText(ctes)} ${around.select}`;
}

/**
 * Independent writes (see withWrites) in as few round trips as the store allows: one statement on
 * PostgreSQL, one after the other on SQLite (in process, nothing to save).
 */
export async function executeWrites(trx: Transaction<StoreSchema>, dialect: DialectSeam, writes: readonly Write[]): Promise<void> {
  if (writes.length === 0) return;
  if (dialect.name !== 'postgres' || writes.length === 1) {
    for (const write of writes) {
      const statement = typeof write === 'function' ? write(trx) : write;
      if (statement instanceof SqlText) await statement.execute(trx, dialect.name);
      else await ('isRawBuilder' in statement ? statement.execute(trx) : statement.execute());
    }
    return;
  }
  await writesStatement(trx, writes, { select: rawText('select 1') }).execute(trx, dialect.name);
}
