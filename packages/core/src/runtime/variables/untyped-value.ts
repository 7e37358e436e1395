import { fitsNumberType, JSON_DATA_FORMAT, type TypedValue } from './typed-value.js';

/**
 * Infers a typed value from a plain JavaScript value, as Camunda's `Variables.untypedValue` does for what
 * Jackson reads from JSON: string, boolean, integer (int32) or long, double, date, null, bytes; plain
 * objects and arrays become `json`. Anything else (functions, symbols, class instances) is a TypeError.
 */
export function untypedValue(value: unknown, isTransient?: boolean): TypedValue {
  const typed = infer(value);
  return isTransient ? { ...typed, transient: true } : typed;
}

function infer(value: unknown): TypedValue {
  return { ...inferBare(value), valueInfo: {} } as TypedValue;
}

function inferBare(value: unknown): Omit<TypedValue, 'valueInfo'> {
  if (value === null || value === undefined) return { type: 'null', value: null };
  if (typeof value === 'string') return { type: 'string', value };
  if (typeof value === 'boolean') return { type: 'boolean', value };
  if (typeof value === 'number') {
    if (fitsNumberType('integer', value)) return { type: 'integer', value };
    if (fitsNumberType('long', value)) return { type: 'long', value };
    return { type: 'double', value };
  }
  if (typeof value === 'bigint') {
    const asNumber = Number(value);
    if (Number.isSafeInteger(asNumber)) return inferBare(asNumber);
    throw new TypeError(`Cannot store ${value} as a long variable: outside ±2^53−1`);
  }
  if (value instanceof Date) return { type: 'date', value };
  if (Buffer.isBuffer(value)) return { type: 'bytes', value };
  if (value instanceof Uint8Array) return { type: 'bytes', value: Buffer.from(value) };
  if (Array.isArray(value) || isPlainObject(value)) return { type: 'json', value: JSON.stringify(value) };
  throw new TypeError(`Cannot infer a variable type for a value of type ${describe(value)}`);
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null) return false;
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

function describe(value: unknown): string {
  if (typeof value !== 'object' || value === null) return typeof value;
  return (value as object).constructor?.name ?? 'object';
}

/**
 * The plain JavaScript form of a typed value, for expressions and scripts: json (and Object values in
 * application/json format) parsed when they parse, xml and other Objects as their serialized text, files as bytes.
 */
export function toJavaScriptValue(typed: TypedValue): unknown {
  switch (typed.type) {
    case 'json':
      return typed.value === null ? null : parseOrKeep(typed.value);
    case 'object': {
      const { serializedValue, serializationDataFormat } = typed.value;
      if (serializedValue === null) return null;
      return serializationDataFormat === JSON_DATA_FORMAT ? parseOrKeep(serializedValue) : serializedValue;
    }
    case 'file':
      return typed.value.bytes;
    default:
      return typed.value;
  }
}

function parseOrKeep(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}
