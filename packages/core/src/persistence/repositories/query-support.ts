import { sql, type RawBuilder, type SelectQueryBuilder, type SqlBool } from 'kysely';

export type SortOrder = 'asc' | 'desc';

/** One sort criterion of a list query. */
export interface Sorting<Field extends string> {
  sortBy: Field;
  sortOrder: SortOrder;
  /** A variable sort's `parameters` (Camunda's SortingDto): the variable's name and its type's REST name. */
  parameters?: { variable?: string | null; type?: string | null };
}

/** What a sort field orders by: a column, an expression, or an expression built from the sorting entry (a variable sort). */
export type SortColumn<Field extends string> = string | RawBuilder<unknown> | ((entry: Sorting<Field>) => RawBuilder<unknown>);

/** Camunda's firstResult/maxResults paging. */
export interface Page {
  firstResult?: number;
  maxResults?: number;
}

/**
 * Orders by the given criteria, or by id when there are none (Camunda's default `RES.ID_ asc`).
 * Nulls sort as the smallest value on both dialects, so SQLite and PostgreSQL agree.
 */
export function applySorting<DB, TB extends keyof DB, O, Field extends string>(
  query: SelectQueryBuilder<DB, TB, O>,
  sorting: readonly Sorting<Field>[] | undefined,
  columns: Record<Field, SortColumn<Field>>,
  idColumn: string,
): SelectQueryBuilder<DB, TB, O> {
  if (!sorting || sorting.length === 0) return query.orderBy(sql.ref(idColumn), 'asc');
  return sorting.reduce((ordered, entry) => {
    const column = columns[entry.sortBy];
    const expression: RawBuilder<unknown> = typeof column === 'string' ? sql.ref(column) : typeof column === 'function' ? column(entry) : column;
    return ordered.orderBy(expression, (item) => (entry.sortOrder === 'asc' ? item.asc().nullsFirst() : item.desc().nullsLast()));
  }, query);
}

/** Applies firstResult/maxResults; one given alone defaults the other to 0 / unbounded. */
export function applyPage<DB, TB extends keyof DB, O>(query: SelectQueryBuilder<DB, TB, O>, page: Page): SelectQueryBuilder<DB, TB, O> {
  const offset = Math.max(0, page.firstResult ?? 0);
  if (page.maxResults !== undefined) return query.limit(Math.max(0, page.maxResults)).offset(offset);
  // SQLite needs a LIMIT before an OFFSET; the largest safe integer means "no limit" on both dialects.
  if (offset > 0) return query.limit(Number.MAX_SAFE_INTEGER).offset(offset);
  return query;
}

/** Epoch milliseconds as stored, back to a Date. */
export const toDate = (millis: number): Date => new Date(Number(millis));
/** 0/1 integer column to boolean. */
export const toBoolean = (value: number): boolean => Number(value) === 1;
/** boolean to the 0/1 integer column. */
export const fromBoolean = (value: boolean): number => (value ? 1 : 0);

/**
 * `IN ()` is invalid SQL: an empty list must match nothing, which a list of one impossible id does
 * (a control character: PostgreSQL refuses NUL in text, so not that one).
 */
export function nonEmpty(values: readonly string[]): string[] {
  return values.length > 0 ? [...values] : ['\u0001'];
}

/** `column in (values)` as one condition; an empty list matches nothing (see nonEmpty). */
export function columnIn(column: string, values: readonly string[]) {
  return sql<SqlBool>`${sql.ref(column)} in (${sql.join(nonEmpty(values))})`;
}

/**
 * Camunda's LIKE escape (its escapeChar, a backslash): `\%`, `\_` and `\\` in a pattern match those
 * characters themselves. PostgreSQL's LIKE escapes with a backslash by default, SQLite's only when told.
 */
export const LIKE_ESCAPE_SQL = `escape '\\'`;
export const LIKE_ESCAPE = sql.raw(LIKE_ESCAPE_SQL);

/** `column like pattern`, escaped as Camunda's queries are (LIKE_ESCAPE). */
export const likeMatches = (column: string, pattern: string) => sql<SqlBool>`${sql.ref(column)} like ${pattern} ${LIKE_ESCAPE}`;
