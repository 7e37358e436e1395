import { spinJson } from './spin-json.js';

// Java String methods that models call on text values (`${status.equals('ok')}`).
const STRING_METHODS: Record<string, (text: string, ...args: any[]) => unknown> = {
  equals: (text, other) => text === String(other),
  equalsIgnoreCase: (text, other) => text.toLowerCase() === String(other).toLowerCase(),
  contains: (text, part) => text.includes(String(part)),
  startsWith: (text, part) => text.startsWith(String(part)),
  endsWith: (text, part) => text.endsWith(String(part)),
  length: (text) => text.length,
  isEmpty: (text) => text.length === 0,
  toUpperCase: (text) => text.toUpperCase(),
  toLowerCase: (text) => text.toLowerCase(),
  trim: (text) => text.trim(),
  substring: (text, start, end) => text.substring(Number(start), end === undefined ? undefined : Number(end)),
  indexOf: (text, part) => text.indexOf(String(part)),
  toString: (text: string) => text,
};

// Java List and Map methods on lists and maps (a camunda:list / camunda:map, a deserialized collection): `${items.size()}`.
const LIST_METHODS: Record<string, (list: unknown[], ...args: any[]) => unknown> = {
  size: (list) => list.length,
  isEmpty: (list) => list.length === 0,
  contains: (list, item) => list.includes(item),
  get: (list, index) => list[Number(index)] ?? null,
  indexOf: (list, item) => list.indexOf(item),
};
const MAP_METHODS: Record<string, (map: Record<string, unknown>, ...args: any[]) => unknown> = {
  size: (map) => Object.keys(map).length,
  isEmpty: (map) => Object.keys(map).length === 0,
  containsKey: (map, key) => Object.hasOwn(map, String(key)),
  containsValue: (map, value) => Object.values(map).includes(value),
  get: (map, key) => (Object.hasOwn(map, String(key)) ? map[String(key)] : null),
  keySet: (map) => Object.keys(map),
  values: (map) => Object.values(map),
};

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && (Object.getPrototypeOf(value) === Object.prototype || Object.getPrototypeOf(value) === null);

/** `a.b` / `a['b']`: a property, an index, or a Java-style getter (`execution.processInstanceId`). */
export function readProperty(target: unknown, property: unknown): unknown {
  if (target === null || target === undefined) throw new Error(`Cannot read property '${String(property)}' of null`);
  const name = String(property);
  if (Array.isArray(target)) return target[Number(property)] ?? null;
  if (target instanceof Map) return target.get(property) ?? null;
  const record = target as Record<string, unknown>;
  if (typeof target === 'string' && name === 'length') return target.length;
  if (name in Object(target) && typeof record[name] !== 'function') return record[name] ?? null;
  const getter = record[`get${name[0]?.toUpperCase() ?? ''}${name.slice(1)}`] ?? record[`is${name[0]?.toUpperCase() ?? ''}${name.slice(1)}`];
  if (typeof getter === 'function') return getter.call(target);
  throw new Error(`Property '${name}' not found on ${typeof target === 'object' ? 'object' : typeof target}`);
}

/** `a.m(x)`: a function property called with `a` as `this`, or a Java String / Number method. */
export function callMethod(target: unknown, method: string, args: unknown[]): unknown {
  if (target === null || target === undefined) throw new Error(`Cannot call method '${method}' on null`);
  if (typeof target === 'string' && STRING_METHODS[method]) return STRING_METHODS[method](target, ...args);
  if (typeof target === 'number' && method === 'toString') return String(target);
  if (typeof target === 'number' && method === 'equals') return target === Number(args[0]);
  if (Array.isArray(target) && LIST_METHODS[method]) return LIST_METHODS[method](target, ...args);
  if (isPlainObject(target) && typeof target[method] !== 'function' && MAP_METHODS[method]) return MAP_METHODS[method](target, ...args);
  const fn = (target as Record<string, unknown>)[method];
  if (typeof fn === 'function') return fn.apply(target, args);
  // A Json variable is a Spin node in Camunda's expressions: `${scores.elements()}`, `${score.numberValue()}`.
  if (SPIN_METHODS.has(method)) return (spinJson(target) as unknown as Record<string, (...values: unknown[]) => unknown>)[method](...args);
  throw new Error(`Method '${method}' not found`);
}

const SPIN_METHODS = new Set(['prop', 'hasProp', 'elements', 'stringValue', 'numberValue', 'boolValue', 'isNull', 'isObject', 'isArray', 'isString', 'isNumber', 'isBoolean', 'value']);
