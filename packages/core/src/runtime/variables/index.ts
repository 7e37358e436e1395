export type {
  TypedValue,
  BooleanTypedValue,
  BytesTypedValue,
  NumberTypedValue,
  DateTypedValue,
  StringTypedValue,
  NullTypedValue,
  SpinTypedValue,
  ObjectTypedValue,
  FileTypedValue,
  SerializedObject,
  FileContent,
  NumberTypeName,
  ValueTypeName,
} from './typed-value.js';
export { VALUE_TYPE_NAMES, JSON_DATA_FORMAT, XML_DATA_FORMAT, JAVA_DATA_FORMAT, checkVariableWrite, isJavaSerialized, javaSerializationProhibited, fitsNumberType, isValueTypeName, isSerializableType } from './typed-value.js';
export { untypedValue, toJavaScriptValue } from './untyped-value.js';
export { toStorage, fromStorage, toJsonStorage, fromJsonStorage, type VariableStorageRow, type JsonStoredVariables } from './variable-storage.js';
