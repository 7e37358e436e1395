import { CompiledQuery, sql, type DatabaseConnection, type Expression, type OperationNode, type QueryResult, type Transaction } from 'kysely';
import type { DialectName } from './dialect.js';
import type { StoreSchema } from './schema.js';

/** Stands for a parameter in SqlText (never part of SQL the engine writes). */
const PARAMETER = '\u0000';
const PARAMETERS = /\u0000/g;
/** Rendered texts by store and prefix (see render); texts that vary (an IN list's length) can make more, so the cache is bounded. */
const RENDERED = new Map<string, Map<string, string>>();
const MAX_RENDERED = 2_000;

/**
 * SQL text with its parameters, for the statements that run on every instance end: put together
 * by string concatenation, where the query builder's `sql` makes (and freezes) a node per fragment
 * and parameter and then walks them again to compile — measured, a fifth of the engine's CPU
 * and a third of its allocations per external task completion. Nested SqlText is inlined; any other
 * value is a parameter. It is also a query builder expression, so it can stand wherever `sql`
 * could (a value of an insert, say).
 */
export class SqlText<T = unknown> implements Expression<T> {
  constructor(
    readonly text: string,
    readonly parameters: readonly unknown[],
  ) {}

  get expressionType(): T | undefined {
    return undefined;
  }

  toOperationNode(): OperationNode {
    const fragments = this.text.split(PARAMETER);
    return sql(Object.assign(fragments, { raw: fragments }) as unknown as TemplateStringsArray, ...this.parameters).toOperationNode();
  }

  /**
   * `prefix` and the text with the store's placeholders: `$1`, `$2`… on PostgreSQL, `?` on SQLite.
   * The same few hundred texts recur: each is rendered once, and the same string comes back every
   * time after (the driver's lookups of prepared statements then hash it only once).
   */
  render(dialect: DialectName, prefix = ''): string {
    const key = `${dialect}:${prefix}`;
    let cache = RENDERED.get(key);
    if (!cache) RENDERED.set(key, (cache = new Map()));
    let rendered = cache.get(this.text);
    if (rendered === undefined) {
      let index = 0;
      rendered = prefix + (dialect === 'postgres' ? this.text.replace(PARAMETERS, () => `$${++index}`) : this.text.replace(PARAMETERS, '?'));
      if (cache.size >= MAX_RENDERED) cache.clear();
      cache.set(this.text, rendered);
    }
    return rendered;
  }

  execute(trx: Transaction<StoreSchema>, dialect: DialectName, prefix = ''): Promise<QueryResult<unknown>> {
    const connection = DIRECT.get(trx);
    if (!connection) return trx.executeQuery(CompiledQuery.raw(this.render(dialect, prefix), [...this.parameters]));
    // The connections read nothing of a compiled query but its text and parameters.
    return connection.executeQuery({ sql: this.render(dialect, prefix), parameters: this.parameters } as CompiledQuery);
  }
}

/** Connections whose transactions' SqlText statements go to them directly (see sendSqlTextDirectly). */
const DIRECT = new WeakMap<Transaction<StoreSchema>, DatabaseConnection>();

/**
 * From now until forgetConnection, the transaction's SqlText statements skip the query builder's
 * executor (a dozen promises and a compiled-query object per statement, for nothing: the engine
 * uses no plugins) and go to its connection. The engine's commands run their statements one after
 * the other; the driver queues them in any case.
 */
export async function sendSqlTextDirectly(trx: Transaction<StoreSchema>): Promise<void> {
  DIRECT.set(trx, await trx.getExecutor().provideConnection(async (connection) => connection));
}

/** The transaction has ended: its connection may already serve another one. */
export function forgetConnection(trx: Transaction<StoreSchema>): void {
  DIRECT.delete(trx);
}

/** `sqlText\`… ${value} …\``: values become parameters, SqlText values are inlined. */
export function sqlText<T = unknown>(fragments: TemplateStringsArray, ...values: unknown[]): SqlText<T> {
  let text = fragments[0];
  const parameters: unknown[] = [];
  for (let i = 0; i < values.length; i++) {
    text += append(values[i], parameters) + fragments[i + 1];
  }
  return new SqlText<T>(text, parameters);
}

/** The items separated by `separator` (each a parameter, or inlined SqlText). */
export function joinText(items: readonly unknown[], separator = ', '): SqlText {
  const parameters: unknown[] = [];
  const text = items.map((item) => append(item, parameters)).join(separator);
  return new SqlText(text, parameters);
}

/** Text taken as it is (identifiers and keywords of the engine's own, never input). */
export function rawText(text: string): SqlText {
  return new SqlText(text, []);
}

/** Statement text the query builder compiled for the store ($n in order on PostgreSQL, ? on SQLite), as SqlText. */
export function fromCompiled(query: { sql: string; parameters: readonly unknown[] }, dialect: DialectName): SqlText {
  return new SqlText(query.sql.replace(dialect === 'postgres' ? /\$\d+/g : /\?/g, PARAMETER), query.parameters);
}

function append(value: unknown, parameters: unknown[]): string {
  if (value instanceof SqlText) {
    for (const parameter of value.parameters) parameters.push(parameter);
    return value.text;
  }
  if (typeof value === 'object' && value !== null && 'toOperationNode' in value) throw new Error('sqlText takes SqlText, not the query builder\'s SQL');
  parameters.push(value);
  return PARAMETER;
}
