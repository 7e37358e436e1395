import { JSON_DATA_FORMAT, untypedValue, type TypedValue } from '@trellis/core';
import { InvalidRequestException } from '../errors/rest-exception.js';
import { formatRestDate, parseRestDate } from './dates.js';

/** Camunda's `VariableValueDto`. */
export interface VariableValueDto {
  type: string;
  value: unknown;
  valueInfo: Record<string, unknown>;
}

/**
 * A variable the engine would refuse, with Camunda's message. `status` 400 is Camunda's RestException /
 * InvalidRequestException; 500 marks what Camunda raises as IllegalArgumentException or ProcessEngineException.
 */
export class VariableValueError extends Error {
  constructor(message: string, readonly status: 400 | 500 = 400) {
    super(message);
    this.name = 'VariableValueError';
  }
}

type PrimitiveName = 'boolean' | 'bytes' | 'date' | 'double' | 'integer' | 'long' | 'null' | 'short' | 'string' | 'number';
/** Java class names (`Class.getName()`) of the primitive types, for the conversion message. */
const JAVA_TYPES: Record<PrimitiveName, string> = {
  boolean: 'java.lang.Boolean', bytes: '[B', date: 'java.util.Date', double: 'java.lang.Double', integer: 'java.lang.Integer',
  long: 'java.lang.Long', null: 'javax.lang.model.type.NullType', short: 'java.lang.Short', string: 'java.lang.String', number: 'java.lang.Number',
};
const INT_RANGES = { short: 2 ** 15, integer: 2 ** 31, long: 2 ** 53 } as const;
const DOUBLE_TEXT = /^[+-]?(NaN|Infinity|(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?[fFdD]?)$/;
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** REST → typed value, following `VariableValueDto.toTypedValue`; the caller adds its endpoint prefix. */
export function fromVariableValueDto(_name: string, dto: { value?: unknown; type?: unknown; valueInfo?: unknown }): TypedValue {
  // valueInfo is a Map<String, Object>: Jackson cannot bind a list or text to it, and Camunda's
  // JsonMappingExceptionHandler answers that with 400 and an empty message, before any resource prefix.
  if (dto.valueInfo != null && (typeof dto.valueInfo !== 'object' || Array.isArray(dto.valueInfo))) throw new InvalidRequestException(400, '');
  const info = (dto.valueInfo ?? null) as Record<string, unknown> | null;
  const value = dto.value ?? null;
  if (dto.type === undefined || dto.type === null) return untypedValue(value, info?.transient === true);
  const type = String(dto.type);
  const name = type.slice(0, 1).toLowerCase() + type.slice(1);
  if (name in JAVA_TYPES) {
    const primitive = name as PrimitiveName;
    try {
      const converted = value === null ? null : convert(primitive, value);
      const typed = { type: primitive, value: converted, ...transientOf(info) } as TypedValue;
      if (primitive === 'number') throw new VariableValueError('Cannot serialize value of abstract type number', 500);
      return typed;
    } catch (error) {
      if (error instanceof VariableValueError) throw error;
      throw new VariableValueError(`Cannot convert value '${javaString(value)}' of type '${type}' to java type ${JAVA_TYPES[primitive]}`);
    }
  }
  if (name === 'object' || name === 'json' || name === 'xml') {
    if (value !== null && typeof value !== 'string') {
      throw new VariableValueError(`Must provide 'null' or String value for value of SerializableValue type '${type}'.`);
    }
    if (name !== 'object') return { type: name, value, ...illegalArgument(() => transientOf(info)) };
    const objectTypeName = info?.objectTypeName == null ? null : String(info.objectTypeName);
    const serializationDataFormat = info?.serializationDataFormat == null ? null : String(info.serializationDataFormat);
    return { type: 'object', value: { serializedValue: value, objectTypeName, serializationDataFormat }, ...illegalArgument(() => transientOf(info)) };
  }
  if (name === 'file') return illegalArgument(() => fileValue(typeof value === 'string' ? Buffer.from(value, 'base64') : value, info));
  throw new VariableValueError(`Unsupported value type '${type}'`);
}

/** Jackson's reading of `"<value>"` as the primitive's Java type (the value is not already of that type). */
function convert(type: PrimitiveName, value: unknown): unknown {
  if (type === 'boolean' && typeof value === 'boolean') return value;
  if (type === 'string' && typeof value === 'string') return value;
  if (type === 'null') throw new Error('NullType cannot be constructed');
  if ((type === 'double' || type === 'number') && typeof value === 'number') return value;
  if (type in INT_RANGES && typeof value === 'number' && Number.isInteger(value)) return checkRange(type as keyof typeof INT_RANGES, value);
  const text: string = JSON.parse(`"${javaString(value)}"`);
  if (type === 'string') return text;
  if (type === 'bytes') return decodeBase64(text);
  const trimmed = text.trim();
  if (trimmed === '' || trimmed === 'null') return null;
  if (type === 'date') return parseRestDate(trimmed) ?? fail();
  if (type === 'boolean') return /^(true|True|TRUE)$/.test(trimmed) ? true : /^(false|False|FALSE)$/.test(trimmed) ? false : fail();
  if (type === 'double' || type === 'number') {
    // Jackson reads NaN and ±Infinity (and overflows to them), but the database's double column cannot
    // keep them, so they are refused rather than read back as null (README, Known gaps).
    const parsed = DOUBLE_TEXT.test(trimmed) ? Number.parseFloat(trimmed.replace(/[fFdD]$/, '')) : Number.NaN;
    return Number.isFinite(parsed) ? parsed : fail();
  }
  return /^[+-]?\d+$/.test(trimmed) ? checkRange(type as keyof typeof INT_RANGES, Number(trimmed)) : fail();
}

function checkRange(type: keyof typeof INT_RANGES, value: number): number {
  const limit = INT_RANGES[type];
  return value >= -limit && value < limit && Number.isSafeInteger(value) ? value : fail();
}

function decodeBase64(text: string): Buffer {
  const compact = text.replace(/\s+/g, '');
  return BASE64.test(compact) ? Buffer.from(compact, 'base64') : fail();
}

function fail(): never {
  throw new Error('conversion failed');
}

function fileValue(content: unknown, info: Record<string, unknown> | null): TypedValue {
  if (info === null) throw new Error('Cannot create file without valueInfo.');
  if (info.filename == null) throw new Error('Cannot create file without filename! Please set a name into ValueInfo with key filename');
  if (!Buffer.isBuffer(content)) throw new Error('Provided value is not of File, InputStream or byte[] type.');
  if ('mimeType' in info && info.mimeType == null) throw new Error("The provided mime type is null. Set a non-null value info property with key 'filename'");
  if ('encoding' in info && info.encoding == null) throw new Error("The provided encoding is null. Set a non-null value info property with key 'encoding'");
  const optional = (key: string) => (info[key] == null ? null : String(info[key]));
  return { type: 'file', value: { bytes: content, filename: String(info.filename), mimeType: optional('mimeType'), encoding: optional('encoding') }, ...transientOf(info) };
}

/** The typed value's `valueInfo` (always `{}`) and `transient` flag, checked as Camunda's `isTransient` does. */
function transientOf(info: Record<string, unknown> | null): { valueInfo: Record<string, unknown>; transient?: true } {
  if (info === null || !('transient' in info)) return { valueInfo: {} };
  if (typeof info.transient !== 'boolean') throw new Error("The property 'transient' should have a value of type 'boolean'.");
  return info.transient ? { valueInfo: {}, transient: true } : { valueInfo: {} };
}

/**
 * A value type's own refusal (Camunda's IllegalArgumentException from FileValueTypeImpl or
 * AbstractValueTypeImpl.isTransient), which no variable resource catches: a 500 of that type with
 * the bare message.
 */
export class IllegalArgumentException extends Error {
  override readonly name = 'IllegalArgumentException';
}

function illegalArgument<T>(create: () => T): T {
  try {
    return create();
  } catch (error) {
    throw new IllegalArgumentException((error as Error).message);
  }
}

/** How Java's `String.valueOf` renders what Jackson read from JSON (maps `{a=1}`, lists `[1, 2]`, doubles `1.0E-7`). */
function javaString(value: unknown): string {
  if (typeof value === 'number') return javaNumber(value);
  if (Array.isArray(value)) return `[${value.map(javaString).join(', ')}]`;
  if (typeof value === 'object' && value !== null) return `{${Object.entries(value).map(([k, v]) => `${k}=${javaString(v)}`).join(', ')}}`;
  return String(value);
}

function javaNumber(value: number): string {
  if (Number.isInteger(value)) return BigInt(value).toString();
  if (!Number.isFinite(value)) return String(value);
  const magnitude = Math.abs(value);
  if (magnitude >= 1e-3 && magnitude < 1e7) return String(value);
  const [mantissa, exponent] = value.toExponential().split('e') as [string, string];
  return `${mantissa.includes('.') ? mantissa : `${mantissa}.0`}E${Number(exponent)}`;
}

/** Typed value → REST, following `VariableValueDto.fromTypedValue`; File content is never sent. */
export function toVariableValueDto(typed: TypedValue, options: { deserializeValues?: boolean } = {}): VariableValueDto {
  const type = typed.type.slice(0, 1).toUpperCase() + typed.type.slice(1);
  const valueInfo: Record<string, unknown> = {};
  let value: unknown = typed.value;
  if (typed.type === 'date') value = typed.value === null ? null : formatRestDate(typed.value);
  if (typed.type === 'bytes') value = typed.value === null ? null : typed.value.toString('base64');
  if (typed.type === 'file') {
    const { filename, mimeType, encoding } = typed.value;
    Object.assign(valueInfo, { filename }, mimeType === null ? {} : { mimeType }, encoding === null ? {} : { encoding });
    value = null;
  }
  if (typed.type === 'object') {
    const { serializedValue, objectTypeName, serializationDataFormat } = typed.value;
    if (serializationDataFormat !== null) valueInfo.serializationDataFormat = serializationDataFormat;
    if (objectTypeName !== null) valueInfo.objectTypeName = objectTypeName;
    value = options.deserializeValues && serializationDataFormat === JSON_DATA_FORMAT ? parseOrKeep(serializedValue) : serializedValue;
  }
  if (typed.transient) valueInfo.transient = true;
  return { type, value, valueInfo };
}

function parseOrKeep(text: string | null): unknown {
  if (text === null) return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}
