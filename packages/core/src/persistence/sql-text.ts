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
  private flat: readonly unknown[] | null;

  /**
   * `parameters`, or null with `parts`: the values the text was made of (SqlText inlined, anything
   * else a parameter), whose parameters are collected when first asked for — once for a statement,
   * not again at every level of nesting.
   */
  constructor(
    readonly text: string,
    parameters: readonly unknown[] | null,
    /** The number of this text among the texts sqlText, joinText and rawText made (see SHAPES); 0: not one of them. */
    readonly shape = 0,
    private readonly parts: readonly unknown[] = [],
  ) {
    this.flat = parameters;
  }

  get parameters(): readonly unknown[] {
    return (this.flat ??= SqlText.collect(this.parts, []));
  }

  /** The parameters of `parts` in order (those of SqlText parts included), pushed to `into`. */
  private static collect(parts: readonly unknown[], into: unknown[]): unknown[] {
    for (const part of parts) {
      if (!(part instanceof SqlText)) into.push(part);
      else if (part.flat) for (const parameter of part.flat) into.push(parameter);
      else SqlText.collect(part.parts, into);
    }
    return into;
  }

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

/**
 * The texts sqlText and joinText made, by what they were made of: the template (or the separator),
 * then the shapes of the parts in order (-1: a parameter), one level of a tree per part. A statement
 * built again from parts of the same shapes takes the same string instead of concatenating a new
 * one: less to allocate, and one string whose hash V8 keeps for the lookups after (render, prepared
 * statements). Shape numbers are never reused, so dropping the trees when they grow is always safe.
 */
interface ShapeNode {
  next: Map<number, ShapeNode>;
  made?: { text: string; shape: number };
}
let templates = new WeakMap<TemplateStringsArray, ShapeNode>();
let separators = new Map<string, ShapeNode>();
const raws = new Map<string, { text: string; shape: number }>();
const MAX_SHAPE_NODES = 50_000;
let shapeNodes = 0;
let lastShape = 0;

const shapeNode = (): ShapeNode => {
  if (++shapeNodes > MAX_SHAPE_NODES) {
    shapeNodes = 1;
    templates = new WeakMap();
    separators = new Map();
    raws.clear();
  }
  return { next: new Map() };
};

/** The node of `parts` under `root`, made on the way where missing; null when a part has no shape. */
function nodeOf(root: ShapeNode, parts: readonly unknown[]): ShapeNode | null {
  let node = root;
  for (const part of parts) {
    const shape = part instanceof SqlText ? part.shape : -1;
    if (shape === 0) return null;
    if (shape === -1 && typeof part === 'object' && part !== null && 'toOperationNode' in part) return null;
    let next = node.next.get(shape);
    if (!next) node.next.set(shape, (next = shapeNode()));
    node = next;
  }
  return node;
}

/** `sqlText\`… ${value} …\``: values become parameters, SqlText values are inlined. */
export function sqlText<T = unknown>(fragments: TemplateStringsArray, ...values: unknown[]): SqlText<T> {
  let root = templates.get(fragments);
  if (!root) templates.set(fragments, (root = shapeNode()));
  const node = nodeOf(root, values);
  if (node?.made) return shaped<T>(node, values, null);
  let text = fragments[0];
  for (let i = 0; i < values.length; i++) text += textOf(values[i]) + fragments[i + 1];
  return shaped<T>(node, values, text);
}

/** The items separated by `separator` (each a parameter, or inlined SqlText); `items` must not change after. */
export function joinText(items: readonly unknown[], separator = ', '): SqlText {
  let root = separators.get(separator);
  if (!root) separators.set(separator, (root = shapeNode()));
  const node = nodeOf(root, items);
  return shaped(node, items, node?.made ? null : items.map(textOf).join(separator));
}

/**
 * SqlText of `parts`: the text kept at `node`, kept there first when new (`text`, put together by the
 * caller unless `node` has one already), or `text` alone when the parts have no shape (no node).
 */
function shaped<T = unknown>(node: ShapeNode | null, parts: readonly unknown[], text: string | null): SqlText<T> {
  if (!node) return new SqlText<T>(text!, null, 0, parts);
  node.made ??= { text: text!, shape: ++lastShape };
  return new SqlText<T>(node.made.text, null, node.made.shape, parts);
}

/** Text taken as it is (identifiers and keywords of the engine's own, never input). */
export function rawText(text: string): SqlText {
  let known = raws.get(text);
  if (!known) {
    if (raws.size >= MAX_SHAPE_NODES) raws.clear();
    raws.set(text, (known = { text, shape: ++lastShape }));
  }
  return new SqlText(known.text, [], known.shape);
}

/** A part's text in a statement: its own, or a parameter's placeholder (the query builder's SQL is refused). */
function textOf(value: unknown): string {
  if (value instanceof SqlText) return value.text;
  if (typeof value === 'object' && value !== null && 'toOperationNode' in value) throw new Error('sqlText takes SqlText, not the query builder\'s SQL');
  return PARAMETER;
}

/** Statement text the query builder compiled for the store ($n in order on PostgreSQL, ? on SQLite), as SqlText. */
export function fromCompiled(query: { sql: string; parameters: readonly unknown[] }, dialect: DialectName): SqlText {
  return new SqlText(query.sql.replace(dialect === 'postgres' ? /\$\d+/g : /\?/g, PARAMETER), query.parameters);
}
