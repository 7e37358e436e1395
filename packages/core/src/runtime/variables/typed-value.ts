import { ProcessEngineException } from '../../errors/exceptions.js';

/**
 * Camunda's typed variable values (`org.camunda.bpm.engine.variable.value.TypedValue`) in JavaScript form.
 * `type` is the engine's type name (lower camel case, as in ACT_RU_VARIABLE.TYPE_); the REST API upper-cases
 * its first letter. As in Camunda, a primitive typed value may hold `null` (`{type:'Integer', value:null}`).
 * `transient: true` marks a value that is never persisted. `valueInfo` is always `{}` here: what Camunda keeps
 * in valueInfo (object type name, data format, file name, mime type, encoding) lives in `value`, and the REST
 * valueInfo is derived from it (see http-koa's variable-dto); the field is not persisted.
 */
export type TypedValue =
  | BooleanTypedValue
  | BytesTypedValue
  | NumberTypedValue
  | DateTypedValue
  | StringTypedValue
  | NullTypedValue
  | SpinTypedValue
  | ObjectTypedValue
  | FileTypedValue;

interface TypedValueBase {
  valueInfo: Record<string, unknown>;
  transient?: boolean;
}

export interface BooleanTypedValue extends TypedValueBase { type: 'boolean'; value: boolean | null }
export interface BytesTypedValue extends TypedValueBase { type: 'bytes'; value: Buffer | null }
/** short (int16), integer (int32), long (limited to safe integers, ±2^53−1) and double. */
export interface NumberTypedValue extends TypedValueBase { type: NumberTypeName; value: number | null }
export interface DateTypedValue extends TypedValueBase { type: 'date'; value: Date | null }
export interface StringTypedValue extends TypedValueBase { type: 'string'; value: string | null }
export interface NullTypedValue extends TypedValueBase { type: 'null'; value: null }
/** Spin's Json and Xml values, kept in their serialized (text) form. */
export interface SpinTypedValue extends TypedValueBase { type: 'json' | 'xml'; value: string | null }
export interface ObjectTypedValue extends TypedValueBase { type: 'object'; value: SerializedObject }
export interface FileTypedValue extends TypedValueBase { type: 'file'; value: FileContent }

/**
 * An Object value in serialized form. `serializationDataFormat` null means "not given"
 * (Camunda then applies the engine's default serialization format); `serializedValue` null is a null object.
 */
export interface SerializedObject {
  serializedValue: string | null;
  objectTypeName: string | null;
  serializationDataFormat: string | null;
}

export interface FileContent {
  bytes: Buffer;
  filename: string;
  mimeType: string | null;
  encoding: string | null;
}

export type NumberTypeName = 'short' | 'integer' | 'long' | 'double';
export type ValueTypeName = TypedValue['type'];

/** The concrete value types in Camunda's resolver order (plus Spin's json and xml). */
export const VALUE_TYPE_NAMES: readonly ValueTypeName[] = [
  'boolean', 'bytes', 'date', 'double', 'integer', 'long', 'null', 'short', 'string', 'object', 'file', 'json', 'xml',
];

export const JSON_DATA_FORMAT = 'application/json';
export const XML_DATA_FORMAT = 'application/xml';
/** Camunda's Java serialization format, which its engine refuses by default (javaSerializationFormatEnabled: false). */
export const JAVA_DATA_FORMAT = 'application/x-java-serialized-object';

/** Whether the value is an object in Java's serialization format (VariableUtil.isJavaSerializationProhibited). */
export const isJavaSerialized = (value: TypedValue): boolean => value.type === 'object' && value.value.serializationDataFormat === JAVA_DATA_FORMAT;

/** Camunda's text for such a value (the migration plan's variable report shows it without ENGINE-17007). */
export const javaSerializationProhibited = (name: string): string => `Cannot set variable with name ${name}. Java serialization format is prohibited`;

/** Camunda's VariableUtil.checkJavaSerialization: ENGINE-17007 for an object value in Java's serialization format. */
export function checkJavaSerialization(name: string, value: TypedValue): void {
  if (isJavaSerialized(value)) throw new ProcessEngineException(`ENGINE-17007 ${javaSerializationProhibited(name)}`);
}

/**
 * What Camunda checks as it writes a variable: Java serialization refused (checkJavaSerialization),
 * then, for a stored (not transient) serialized Object, a serializer for its format
 * (DefaultVariableSerializers.findSerializerForValue; Trellis has Spin's JSON and XML ones) and an
 * object type name for a non-null value (AbstractObjectValueSerializer.getObjectTypeName).
 * A null format is left alone: Trellis stores such a value as given (README, Known gaps).
 */
export function checkVariableWrite(name: string, value: TypedValue): void {
  checkJavaSerialization(name, value);
  if (value.type !== 'object' || value.transient || value.value.serializationDataFormat === null) return;
  const { serializedValue, objectTypeName, serializationDataFormat } = value.value;
  if (serializationDataFormat !== JSON_DATA_FORMAT && serializationDataFormat !== XML_DATA_FORMAT) {
    const length = serializedValue === null ? null : `${serializedValue.length} chars`;
    throw new ProcessEngineException(`Cannot find serializer for value 'ObjectValue [value=null, isDeserialized=false, serializationDataFormat=${serializationDataFormat}, objectTypeName=${objectTypeName}, serializedValue=${length}, isTransient=false]'.`);
  }
  if (objectTypeName === null && serializedValue !== null) {
    throw new ProcessEngineException(`Cannot write serialized value for variable '${name}': no 'objectTypeName' provided for non-null value.`);
  }
}

const INTEGER_RANGES: Record<Exclude<NumberTypeName, 'double'>, readonly [number, number]> = {
  short: [-32768, 32767],
  integer: [-2147483648, 2147483647],
  long: [Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER],
};

/** Whether `value` fits the Java type behind `type` (a double takes any number). */
export function fitsNumberType(type: NumberTypeName, value: number): boolean {
  if (type === 'double') return typeof value === 'number';
  const [min, max] = INTEGER_RANGES[type];
  return Number.isInteger(value) && value >= min && value <= max;
}

export function isValueTypeName(name: string): name is ValueTypeName {
  return (VALUE_TYPE_NAMES as readonly string[]).includes(name);
}

/** Camunda's serializable types: their REST value is the serialized string. */
export function isSerializableType(type: ValueTypeName): type is 'object' | 'json' | 'xml' {
  return type === 'object' || type === 'json' || type === 'xml';
}
