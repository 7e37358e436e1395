import { isValueTypeName, type FileContent, type SerializedObject, type TypedValue } from './typed-value.js';

/**
 * The value columns of a stored variable (Camunda's ACT_RU_VARIABLE TYPE_, TEXT_, TEXT2_, LONG_, DOUBLE_
 * and the byte array, kept inline here). Layout per type:
 * - boolean: long_value 1/0; date: long_value epoch millis; double: double_value
 * - short/integer/long: long_value, and text the decimal string (as Camunda's serializers write it)
 * - string/json/xml: text; bytes: bytes; null: nothing
 * - object: text the serialized value, text2 the JSON `{"objectTypeName":…,"serializationDataFormat":…}`
 * - file: bytes the content, text the filename, text2 `<mimeType>#<encoding>` (Camunda's FileValueSerializer;
 *   a missing part is empty, both missing is null)
 * A null primitive is a row of its type with every value column null. Transient values are not meant to be stored.
 */
export interface VariableStorageRow {
  type: string;
  text: string | null;
  text2: string | null;
  long_value: number | null;
  double_value: number | null;
  bytes: Buffer | null;
}

const MIME_ENCODING_SEPARATOR = '#';

export function toStorage(typed: TypedValue): VariableStorageRow {
  const row: VariableStorageRow = { type: typed.type, text: null, text2: null, long_value: null, double_value: null, bytes: null };
  switch (typed.type) {
    case 'boolean':
      return { ...row, long_value: typed.value === null ? null : typed.value ? 1 : 0 };
    case 'short':
    case 'integer':
    case 'long':
      return typed.value === null ? row : { ...row, long_value: typed.value, text: String(typed.value) };
    case 'double':
      return { ...row, double_value: typed.value };
    case 'date':
      return { ...row, long_value: typed.value === null ? null : typed.value.getTime() };
    case 'string':
    case 'json':
    case 'xml':
      return { ...row, text: typed.value };
    case 'bytes':
      return { ...row, bytes: typed.value };
    case 'null':
      return row;
    case 'object': {
      const { serializedValue, objectTypeName, serializationDataFormat } = typed.value;
      return { ...row, text: serializedValue, text2: JSON.stringify({ objectTypeName, serializationDataFormat }) };
    }
    case 'file': {
      const { bytes, filename, mimeType, encoding } = typed.value;
      const text2 = mimeType === null && encoding === null ? null : `${mimeType ?? ''}${MIME_ENCODING_SEPARATOR}${encoding ?? ''}`;
      return { ...row, bytes, text: filename, text2 };
    }
  }
}

export function fromStorage(row: VariableStorageRow): TypedValue {
  return { ...readValue(row), valueInfo: {} } as TypedValue;
}

function readValue(row: VariableStorageRow): Omit<TypedValue, 'valueInfo'> {
  const { type } = row;
  if (!isValueTypeName(type)) throw new Error(`Unknown variable type '${type}' in storage`);
  switch (type) {
    case 'boolean':
      return { type, value: row.long_value === null ? null : row.long_value !== 0 };
    case 'short':
    case 'integer':
    case 'long':
      return { type, value: row.long_value === null ? null : Number(row.long_value) };
    case 'double':
      return { type, value: row.double_value === null ? null : Number(row.double_value) };
    case 'date':
      return { type, value: row.long_value === null ? null : new Date(Number(row.long_value)) };
    case 'string':
    case 'json':
    case 'xml':
      return { type, value: row.text };
    case 'bytes':
      return { type, value: row.bytes };
    case 'null':
      return { type, value: null };
    case 'object':
      return { type, value: { serializedValue: row.text, ...readObjectInfo(row.text2) } };
    case 'file':
      return { type, value: { bytes: row.bytes ?? Buffer.alloc(0), filename: row.text ?? '', ...readMimeAndEncoding(row.text2) } };
  }
}

function readObjectInfo(text2: string | null): Omit<SerializedObject, 'serializedValue'> {
  const info = (text2 === null ? {} : JSON.parse(text2)) as Partial<SerializedObject>;
  return { objectTypeName: info.objectTypeName ?? null, serializationDataFormat: info.serializationDataFormat ?? null };
}

function readMimeAndEncoding(text2: string | null): Pick<FileContent, 'mimeType' | 'encoding'> {
  if (text2 === null) return { mimeType: null, encoding: null };
  const at = text2.lastIndexOf(MIME_ENCODING_SEPARATOR);
  const mimeType = at < 0 ? text2 : text2.slice(0, at);
  const encoding = at < 0 ? '' : text2.slice(at + 1);
  return { mimeType: mimeType === '' ? null : mimeType, encoding: encoding === '' ? null : encoding };
}

/** Typed values as JSON keeps them: the variable table's column layout, bytes as base64. */
export type JsonStoredVariables = Record<string, Omit<VariableStorageRow, 'bytes'> & { bytes: string | null }>;

/**
 * Typed values in a form JSON keeps exactly (dates, bytes and files come back as they went in), for
 * variables that live in a JSON configuration (a batch's, a compensation subscription's snapshot).
 */
export function toJsonStorage(variables: Record<string, TypedValue>): JsonStoredVariables {
  const stored: JsonStoredVariables = {};
  for (const [name, value] of Object.entries(variables)) {
    const row = toStorage(value);
    stored[name] = { ...row, bytes: row.bytes === null ? null : row.bytes.toString('base64') };
  }
  return stored;
}

/** The inverse of toJsonStorage. */
export function fromJsonStorage(stored: JsonStoredVariables): Record<string, TypedValue> {
  return Object.fromEntries(Object.entries(stored).map(([name, row]) => [name, fromStorage({ ...row, bytes: row.bytes === null ? null : Buffer.from(row.bytes, 'base64') })]));
}
