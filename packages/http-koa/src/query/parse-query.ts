import { NotValidException, type Sorting, type SortOrder } from '@trellis/core';
import { parseRestDate } from '../dto/dates.js';
import { InvalidRequestException } from '../errors/rest-exception.js';

/**
 * How a parameter converts. `optionalList` is a `stringList` that Camunda's DTO applies only when it
 * holds values (`tenantIdIn=` filters nothing there); `stringList` passes an empty list on.
 * `stringArray` is a DTO's String[] (Camunda's StringArrayConverter, no blank check): `x=` is the one
 * value '' (which matches nothing), `x=,` no value; applied only when it holds values.
 */
export type ParamKind = 'string' | 'boolean' | 'integer' | 'long' | 'date' | 'stringList' | 'optionalList' | 'stringArray';
type ListKind = 'stringList' | 'optionalList' | 'stringArray';

/** The query parameters an endpoint understands, with their kinds, and its allowed sortBy values. */
export interface QuerySpec {
  params: Record<string, ParamKind>;
  sortBy?: readonly string[];
  /** sortBy values of a body's `sorting` entries that take `parameters` (variable name and type): Camunda's variable sorts. */
  variableSortBy?: readonly string[];
  /** Documented parameters Trellis does not filter by yet: refused, so a client never gets unfiltered rows by surprise. */
  unsupported?: readonly string[];
}

export interface ParsedQuery {
  params: Record<string, string | boolean | number | Date | string[]>;
  sorting: Sorting<string>[] | undefined;
  page: { firstResult?: number; maxResults?: number };
}

const JAVA_TYPES: Record<Exclude<ParamKind, 'string' | ListKind>, string> = {
  boolean: 'java.lang.Boolean',
  integer: 'java.lang.Integer',
  long: 'java.lang.Long',
  date: 'java.util.Date',
};

/**
 * Reads a Camunda list/count query string: unknown parameters are ignored, a repeated one counts
 * by its first value, and a value that does not convert is a 400 with Camunda's message.
 */
export function parseQuery(query: Record<string, unknown>, spec: QuerySpec): ParsedQuery {
  const params: ParsedQuery['params'] = {};
  for (const name of spec.unsupported ?? []) {
    if (query[name] !== undefined) throw new InvalidRequestException(400, `Query parameter '${name}' is not supported by Trellis yet`);
  }
  for (const [name, kind] of Object.entries(spec.params)) {
    const raw = first(query[name]);
    if (raw === undefined) continue;
    const value = convert(name, raw, kind);
    if (value !== undefined && !isEmptyOptionalList(kind, value)) params[name] = value;
  }
  return { params, sorting: parseSorting(query, spec.sortBy ?? []), page: parsePage(query) };
}

/** The engine query of a list/count endpoint: its filters, sorting and paging in one object. */
export function parseListQuery<Query>(query: Record<string, unknown>, spec: QuerySpec): Query {
  const { params, sorting, page } = parseQuery(query, spec);
  return { ...params, sorting, ...page } as Query;
}

/**
 * A query string value as Camunda's converters read it with Jackson: JSON `null` (and for a date also
 * blank text) is no value at all (undefined), whitespace around a boolean or number is allowed.
 */
function convert(name: string, raw: string, kind: ParamKind): string | boolean | number | Date | string[] | undefined {
  if ((kind === 'boolean' || kind === 'integer' || kind === 'long') && raw.trim() === 'null') return undefined;
  if (kind === 'date' && jacksonNullText(raw)) return undefined;
  switch (kind) {
    case 'string':
      return raw;
    case 'stringList':
    case 'optionalList':
      return raw.trim() === '' ? [] : javaSplit(raw, ',');
    case 'stringArray':
      return javaSplit(raw, ',');
    case 'boolean':
      if (raw.trim() === 'true' || raw.trim() === 'false') return raw.trim() === 'true';
      throw conversionError(name, raw, raw, kind);
    case 'integer':
    case 'long': {
      const max = kind === 'integer' ? 2 ** 31 - 1 : Number.MAX_SAFE_INTEGER;
      const value = /^\s*[+-]?\d+\s*$/.test(raw) ? Number(raw) : Number.NaN;
      if (Number.isNaN(value) || Math.abs(value) > max) throw conversionError(name, raw, raw, kind);
      return value;
    }
    case 'date': {
      const date = jacksonDate(raw);
      if (!date) throw conversionError(name, raw, `"${raw}"`, kind);
      return date;
    }
  }
}

function conversionError(name: string, raw: string, shown: string, kind: Exclude<ParamKind, 'string' | ListKind>) {
  return new InvalidRequestException(
    400,
    `Cannot set query parameter '${name}' to value '${raw}': Cannot convert value ${shown} to java type ${JAVA_TYPES[kind]}`,
  );
}

/** sortBy and sortOrder go together; each must be one of the allowed values. */
export function parseSorting(query: Record<string, unknown>, allowed: readonly string[]): Sorting<string>[] | undefined {
  const sortBy = first(query.sortBy);
  const sortOrder = first(query.sortOrder);
  if (sortBy === undefined && sortOrder === undefined) return undefined;
  if (sortBy !== undefined && !allowed.includes(sortBy)) {
    throw new InvalidRequestException(400, `Cannot set query parameter 'sortBy' to value '${sortBy}'`);
  }
  if (sortOrder !== undefined && sortOrder !== 'asc' && sortOrder !== 'desc') {
    throw new InvalidRequestException(400, `Cannot set query parameter 'sortOrder' to value '${sortOrder}'`);
  }
  if (sortBy === undefined || sortOrder === undefined) {
    throw new InvalidRequestException(400, 'Only a single sorting parameter specified. sortBy and sortOrder required');
  }
  return [{ sortBy, sortOrder: sortOrder as SortOrder }];
}

/** A list query's criteria for its count endpoint: without paging and sorting, which a count ignores. */
export function countCriteria<Q extends { sorting?: unknown; firstResult?: number; maxResults?: number }>(query: Q): Omit<Q, 'sorting' | 'firstResult' | 'maxResults'> {
  const { sorting: _sorting, firstResult: _first, maxResults: _max, ...criteria } = query;
  return criteria;
}

/** firstResult/maxResults: optional whole numbers. */
export function parsePage(query: Record<string, unknown>): ParsedQuery['page'] {
  const page: ParsedQuery['page'] = {};
  for (const name of ['firstResult', 'maxResults'] as const) {
    const raw = first(query[name]);
    if (raw === undefined) continue;
    if (!/^[+-]?\d+$/.test(raw) || Math.abs(Number(raw)) > 2 ** 31 - 1) {
      throw new InvalidRequestException(400, `Cannot set query parameter '${name}' to value '${raw}': Cannot convert value ${raw} to java type java.lang.Integer`);
    }
    page[name] = Number(raw);
  }
  return page;
}

/**
 * POST query bodies: `sorting: [{sortBy, sortOrder}]` as Camunda's AbstractQueryDto applies it to the
 * query after `before` (the body's own sortBy/sortOrder): a known sortBy orders (a variable sort, of
 * `variableSorts`, with its `parameters` {variable, type}), an unknown one is skipped, and `asc` or
 * `desc` sets the direction of the last ordering — the query's NotValidException when there is none or
 * it has one, or when an ordering is left without.
 */
export function parseSortingBody(
  sorting: unknown,
  allowed: readonly string[],
  variableSorts: readonly string[] = [],
  before: readonly Sorting<string>[] = [],
): Sorting<string>[] | undefined {
  if (sorting === undefined || sorting === null) return before.length > 0 ? [...before] : undefined;
  if (!Array.isArray(sorting)) throw new InvalidRequestException(400, '');
  const orderings: Array<Omit<Sorting<string>, 'sortOrder'> & { sortOrder: SortOrder | null }> = [...before];
  for (const entry of sorting as Array<{ sortBy?: unknown; sortOrder?: unknown; parameters?: unknown } | null>) {
    const sortBy = typeof entry?.sortBy === 'string' ? entry.sortBy : null;
    if (sortBy !== null && variableSorts.includes(sortBy)) {
      const parameters = (entry?.parameters !== null && typeof entry?.parameters === 'object' ? entry.parameters : {}) as Record<string, unknown>;
      const textOf = (value: unknown) => (typeof value === 'string' ? value : null);
      orderings.push({ sortBy, sortOrder: null, parameters: { variable: textOf(parameters.variable), type: textOf(parameters.type) } });
    } else if (sortBy !== null && allowed.includes(sortBy)) {
      orderings.push({ sortBy, sortOrder: null });
    }
    if (entry?.sortOrder !== 'asc' && entry?.sortOrder !== 'desc') continue;
    const last = orderings.at(-1);
    if (!last) throw new NotValidException('You should call any of the orderBy methods first before specifying a direction: currentOrderingProperty is null');
    if (last.sortOrder !== null) throw new NotValidException('Invalid query: can specify only one direction desc() or asc() for an ordering constraint: direction is not null');
    last.sortOrder = entry.sortOrder;
  }
  if (orderings.some((ordering) => ordering.sortOrder === null)) throw directionMissing();
  return orderings as Sorting<string>[];
}

/** A query's (and the fetchAndLock builder's) NotValidException for an ordering left without a direction. */
export const directionMissing = () => new NotValidException('Invalid query: call asc() or desc() after using orderByXX(): direction is null');

const isEmptyOptionalList = (kind: ParamKind, value: unknown) => (kind === 'optionalList' || kind === 'stringArray') && Array.isArray(value) && value.length === 0;

function first(value: unknown): string | undefined {
  if (Array.isArray(value)) return value.length > 0 ? String(value[0]) : undefined;
  return value === undefined ? undefined : String(value);
}

/**
 * A POST query body (the criteria of the GET form as typed JSON values, `sorting` as a list) → the
 * engine query; documented criteria Trellis does not filter by yet are refused as in the GET form.
 */
export function parseBodyQuery<Query>(body: Record<string, unknown>, spec: QuerySpec): Query {
  const query: Record<string, unknown> = {};
  for (const name of spec.unsupported ?? []) {
    // An empty list asks for nothing (Camunda shows a saved task query with `caseInstanceVariables: []`).
    const given = body[name];
    if (given !== undefined && given !== null && !(Array.isArray(given) && given.length === 0)) {
      throw new InvalidRequestException(400, `Query parameter '${name}' is not supported by Trellis yet`);
    }
  }
  for (const [name, kind] of Object.entries(spec.params)) {
    const value = body[name];
    if (value === undefined || value === null) continue;
    const converted = bodyValue(value, kind);
    if (converted !== undefined && !isEmptyOptionalList(kind, converted)) query[name] = converted;
  }
  const single = parseSortingFields(body, spec.sortBy ?? []);
  return { ...query, sorting: parseSortingBody(body.sorting, spec.sortBy ?? [], spec.variableSortBy ?? [], single ?? []) } as Query;
}

/**
 * A query body's own `sortBy` / `sortOrder` (Camunda's AbstractQueryDto setters, which Jackson calls
 * too): each checked as it is set, both or neither; they sort before the `sorting` list.
 */
function parseSortingFields(body: Record<string, unknown>, allowed: readonly string[]): Sorting<string>[] | undefined {
  const given = (value: unknown) => (value === undefined || value === null ? undefined : (scalarText(value) ?? String(value)));
  const sortBy = given(body.sortBy);
  const sortOrder = given(body.sortOrder);
  if (sortBy !== undefined && !allowed.includes(sortBy)) throw new InvalidRequestException(400, `sortBy parameter has invalid value: ${sortBy}`);
  if (sortOrder !== undefined && sortOrder !== 'asc' && sortOrder !== 'desc') throw new InvalidRequestException(400, `sortOrder parameter has invalid value: ${sortOrder}`);
  if (sortBy === undefined && sortOrder === undefined) return undefined;
  if (sortBy === undefined || sortOrder === undefined) {
    throw new InvalidRequestException(400, 'Only a single sorting parameter specified. sortBy and sortOrder required');
  }
  return [{ sortBy, sortOrder: sortOrder as SortOrder }];
}

/**
 * A query body's value as Jackson reads it into the DTO's setter (its default scalar coercions):
 * numbers and booleans become text for String and List<String>; "true" / "false" (any of Java's
 * three spellings) a Boolean; an integral string or a fraction (cut) an Integer or Long; epoch
 * milliseconds a Date; blank text or "null" no Boolean, Integer, Long or Date at all (undefined).
 */
function bodyValue(value: unknown, kind: ParamKind): unknown {
  // Jackson cannot bind it: Camunda's JsonMappingExceptionHandler answers 400 with an empty message.
  const invalid = () => new InvalidRequestException(400, '');
  if (kind !== 'string' && kind !== 'stringList' && kind !== 'optionalList' && kind !== 'stringArray' && jacksonNullText(value)) return undefined;
  switch (kind) {
    case 'string': {
      const text = scalarText(value);
      if (text === null) throw invalid();
      return text;
    }
    case 'stringList':
    case 'optionalList':
    case 'stringArray': {
      if (!Array.isArray(value)) throw invalid();
      const texts = value.map(scalarText);
      if (texts.some((text) => text === null)) throw invalid();
      return texts;
    }
    case 'boolean': {
      const flag = jacksonBoolean(value);
      if (flag === null) throw invalid();
      return flag;
    }
    case 'integer':
    case 'long': {
      const max = kind === 'integer' ? 2 ** 31 - 1 : Number.MAX_SAFE_INTEGER;
      const number = jacksonInteger(value);
      if (number === null || Math.abs(number) > max) throw invalid();
      return number;
    }
    case 'date': {
      const date = jacksonDate(value);
      if (!date) throw invalid();
      return date;
    }
  }
}

/** The spellings Jackson reads as a Boolean. */
const JAVA_BOOLEANS = new Set(['true', 'True', 'TRUE', 'false', 'False', 'FALSE']);

/**
 * Text that Jackson's scalar coercions bind as null into a Boolean, an Integer or Long, or a Date:
 * empty or blank (its default for an empty String), or "null" once trimmed.
 */
export function jacksonNullText(value: unknown): boolean {
  if (typeof value !== 'string') return false;
  const text = value.trim();
  return text === '' || text === 'null';
}

/** A JSON value as Jackson reads it into a Boolean: true / false, or one of Java's spellings as text (trimmed); null for anything else. */
export function jacksonBoolean(value: unknown): boolean | null {
  if (typeof value === 'boolean') return value;
  if (typeof value === 'string' && JAVA_BOOLEANS.has(value.trim())) return value.trim().toLowerCase() === 'true';
  return null;
}

/** A JSON value as Jackson reads it into a Date: text in the REST date format (trimmed), or epoch milliseconds; null for anything else. */
export function jacksonDate(value: unknown): Date | null {
  return typeof value === 'string' ? parseRestDate(value.trim()) : typeof value === 'number' && Number.isInteger(value) ? new Date(value) : null;
}

/** A JSON value as Jackson reads it into an Integer or Long: a number (a fraction cut) or integral text; null for anything else. */
export function jacksonInteger(value: unknown): number | null {
  const number = typeof value === 'number' ? Math.trunc(value) : typeof value === 'string' && /^\s*[+-]?\d+\s*$/.test(value) ? Number(value) : Number.NaN;
  return Number.isFinite(number) ? number : null;
}

/** A JSON scalar as Jackson reads it into a String (a number's or boolean's text); null for anything else. */
function scalarText(value: unknown): string | null {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return null;
}

/**
 * A query body's `orQueries` (Camunda's or()): each entry read by `parse` as a query of its own, its
 * sorting left out (Camunda applies only an or-query's criteria). Or-queries inside one are dropped:
 * Camunda's DTOs attach them to the or-query (addOrQuery), where its mapping never reads them.
 */
export function orQueriesFrom<Q extends { sorting?: unknown }>(raw: unknown, parse: (body: Record<string, unknown>) => Q): Array<Omit<Q, 'sorting'>> {
  if (!Array.isArray(raw) || raw.some((each) => typeof each !== 'object' || each === null || Array.isArray(each))) {
    throw new InvalidRequestException(400, `Cannot set query parameter 'orQueries' to value '${JSON.stringify(raw)}'`);
  }
  return raw.map((each: Record<string, unknown>) => {
    // Camunda applies an or-query's criteria only: its sorting list and its own or-queries are never looked at.
    const { sorting: _ignored, orQueries: _nested, ...unsorted } = each;
    const { sorting: _sorting, ...criteria } = parse(unsorted);
    return criteria;
  });
}

/**
 * Java's String.split: the pieces between separators, trailing empty ones dropped ("a_eq_" gives
 * two, "," none); text without a separator is the one piece, even "".
 */
export function javaSplit(text: string, separator: string): string[] {
  if (!text.includes(separator)) return [text];
  const pieces = text.split(separator);
  while (pieces.length > 0 && pieces[pieces.length - 1] === '') pieces.pop();
  return pieces;
}

/**
 * A query-string converter's failure as Camunda's AbstractSearchQueryDto wraps it: the parameter, its
 * value, then the converter's message.
 */
export function converterError(name: string, raw: string, message: string): InvalidRequestException {
  return new InvalidRequestException(400, `Cannot set query parameter '${name}' to value '${raw}': ${message}`);
}

/**
 * Criteria a Camunda DTO applies whenever they are given, whatever their value (its
 * `if (x != null) query.x()`): `false` counts as asked for too.
 */
export function givenMeansTrue<T extends object>(query: T, names: ReadonlyArray<keyof T>): T {
  const applied = { ...query } as Record<string, unknown>;
  for (const name of names) if (applied[name as string] === false) applied[name as string] = true;
  return applied as T;
}

/**
 * A JAX-RS boolean query parameter (Camunda's `@QueryParam` boolean with its `@DefaultValue`): "true"
 * in any case is true, any other value false; absent, `absent`.
 */
export function jaxRsFlag(query: Record<string, unknown>, name: string, absent: boolean): boolean {
  const raw = first(query[name]);
  return raw === undefined ? absent : String(raw).toLowerCase() === 'true';
}
