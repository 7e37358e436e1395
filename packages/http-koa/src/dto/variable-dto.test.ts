import type { TypedValue } from '@trellis/core';
import { describe, expect, it } from 'vitest';
import { formatRestDate } from './dates.js';
import { fromVariableValueDto, IllegalArgumentException, toVariableValueDto, VariableValueError } from './variable-dto.js';

const from = (dto: { value?: unknown; type?: unknown; valueInfo?: unknown }) => fromVariableValueDto('v', dto);
const date = new Date(Date.UTC(2013, 0, 23, 12, 42, 45));
const json = (serializedValue: string | null, objectTypeName: string | null = null, serializationDataFormat: string | null = 'application/json') =>
  ({ type: 'object', valueInfo: {}, value: { serializedValue, objectTypeName, serializationDataFormat } }) as const;

describe('fromVariableValueDto', () => {
  it.each<[string, unknown, unknown, TypedValue]>([
    ['String', 'a', undefined, { type: 'string', valueInfo: {}, value: 'a' }],
    ['string', 5, undefined, { type: 'string', valueInfo: {}, value: '5' }],
    ['String', { a: [1, 2.5] }, undefined, { type: 'string', valueInfo: {}, value: '{a=[1, 2.5]}' }],
    ['String', null, undefined, { type: 'string', valueInfo: {}, value: null }],
    ['Integer', 5, undefined, { type: 'integer', valueInfo: {}, value: 5 }],
    ['integer', '5', undefined, { type: 'integer', valueInfo: {}, value: 5 }],
    ['Integer', ' -7 ', undefined, { type: 'integer', valueInfo: {}, value: -7 }],
    ['Integer', '', undefined, { type: 'integer', valueInfo: {}, value: null }],
    ['Short', '-32768', undefined, { type: 'short', valueInfo: {}, value: -32768 }],
    ['Long', 3000000000, undefined, { type: 'long', valueInfo: {}, value: 3000000000 }],
    ['Long', '9007199254740991', undefined, { type: 'long', valueInfo: {}, value: 9007199254740991 }],
    ['Double', 5, undefined, { type: 'double', valueInfo: {}, value: 5 }],
    ['Double', '1.5e3', undefined, { type: 'double', valueInfo: {}, value: 1500 }],
    ['Double', '2d', undefined, { type: 'double', valueInfo: {}, value: 2 }],
    ['Boolean', true, undefined, { type: 'boolean', valueInfo: {}, value: true }],
    ['Boolean', 'false', undefined, { type: 'boolean', valueInfo: {}, value: false }],
    ['Date', '2013-01-23T14:42:45.000+0200', undefined, { type: 'date', valueInfo: {}, value: date }],
    ['Date', null, undefined, { type: 'date', valueInfo: {}, value: null }],
    ['Bytes', 'AAH/', undefined, { type: 'bytes', valueInfo: {}, value: Buffer.from([0, 1, 255]) }],
    ['Null', null, undefined, { type: 'null', valueInfo: {}, value: null }],
    ['Integer', 1, { transient: true }, { type: 'integer', valueInfo: {}, value: 1, transient: true }],
    ['Integer', 1, { transient: false }, { type: 'integer', valueInfo: {}, value: 1 }],
    ['Json', '{"a":1}', undefined, { type: 'json', valueInfo: {}, value: '{"a":1}' }],
    ['Xml', '<a/>', { transient: true }, { type: 'xml', valueInfo: {}, value: '<a/>', transient: true }],
    ['Object', '{"k":1}', { objectTypeName: 'com.Foo', serializationDataFormat: 'application/json' }, json('{"k":1}', 'com.Foo')],
    ['Object', null, {}, json(null, null, null)],
    ['File', 'YWJj', { filename: 'a.txt', mimeType: 'text/plain', encoding: 'UTF-8' }, { type: 'file', valueInfo: {}, value: { bytes: Buffer.from('abc'), filename: 'a.txt', mimeType: 'text/plain', encoding: 'UTF-8' } }],
    ['file', 'YWJj', { filename: 'a', transient: true }, { type: 'file', valueInfo: {}, value: { bytes: Buffer.from('abc'), filename: 'a', mimeType: null, encoding: null }, transient: true }],
  ])('reads %s %j (valueInfo %j)', (type, value, valueInfo, expected) => {
    expect(from({ type, value, valueInfo })).toEqual(expected);
  });

  it.each<[unknown, unknown, TypedValue]>([
    ['s', undefined, { type: 'string', valueInfo: {}, value: 's' }],
    [5, undefined, { type: 'integer', valueInfo: {}, value: 5 }],
    [5000000000, undefined, { type: 'long', valueInfo: {}, value: 5000000000 }],
    [1.5, { transient: true }, { type: 'double', valueInfo: {}, value: 1.5, transient: true }],
    [{ a: 1 }, undefined, { type: 'json', valueInfo: {}, value: '{"a":1}' }],
    [undefined, undefined, { type: 'null', valueInfo: {}, value: null }],
  ])('infers the type of an untyped %j', (value, valueInfo, expected) => {
    expect(from({ value, valueInfo })).toEqual(expected);
  });

  it.each<[unknown, unknown, unknown, string, 400 | 500 | 'IllegalArgumentException']>([
    ['X', 1, undefined, "Unsupported value type 'X'", 400],
    ['INTEGER', 1, undefined, "Unsupported value type 'INTEGER'", 400],
    ['', 1, undefined, "Unsupported value type ''", 400],
    ['Integer', '1abc', undefined, "Cannot convert value '1abc' of type 'Integer' to java type java.lang.Integer", 400],
    ['integer', 5.5, undefined, "Cannot convert value '5.5' of type 'integer' to java type java.lang.Integer", 400],
    ['Integer', 2147483648, undefined, "Cannot convert value '2147483648' of type 'Integer' to java type java.lang.Integer", 400],
    ['Integer', true, undefined, "Cannot convert value 'true' of type 'Integer' to java type java.lang.Integer", 400],
    ['Short', 32768, undefined, "Cannot convert value '32768' of type 'Short' to java type java.lang.Short", 400],
    ['Long', 2 ** 60, undefined, "Cannot convert value '1152921504606846976' of type 'Long' to java type java.lang.Long", 400],
    ['Double', 'abc', undefined, "Cannot convert value 'abc' of type 'Double' to java type java.lang.Double", 400],
    // Jackson reads these, but no database column keeps them: refused instead of read back as null.
    ['Double', 'NaN', undefined, "Cannot convert value 'NaN' of type 'Double' to java type java.lang.Double", 400],
    ['Double', '-Infinity', undefined, "Cannot convert value '-Infinity' of type 'Double' to java type java.lang.Double", 400],
    ['Double', '1e400', undefined, "Cannot convert value '1e400' of type 'Double' to java type java.lang.Double", 400],
    ['Boolean', 1, undefined, "Cannot convert value '1' of type 'Boolean' to java type java.lang.Boolean", 400],
    ['Boolean', 'yes', undefined, "Cannot convert value 'yes' of type 'Boolean' to java type java.lang.Boolean", 400],
    ['Date', '2013-01-23', undefined, "Cannot convert value '2013-01-23' of type 'Date' to java type java.util.Date", 400],
    ['Date', 1358944965000, undefined, "Cannot convert value '1358944965000' of type 'Date' to java type java.util.Date", 400],
    ['Bytes', 'abc', undefined, "Cannot convert value 'abc' of type 'Bytes' to java type [B", 400],
    ['Bytes', [1, 2], undefined, "Cannot convert value '[1, 2]' of type 'Bytes' to java type [B", 400],
    ['Null', 'x', undefined, "Cannot convert value 'x' of type 'Null' to java type javax.lang.model.type.NullType", 400],
    ['Integer', 1, { transient: 'yes' }, "Cannot convert value '1' of type 'Integer' to java type java.lang.Integer", 400],
    ['Double', 1e-7, { transient: 1 }, "Cannot convert value '1.0E-7' of type 'Double' to java type java.lang.Double", 400],
    ['Object', { a: 1 }, undefined, "Must provide 'null' or String value for value of SerializableValue type 'Object'.", 400],
    ['json', 5, undefined, "Must provide 'null' or String value for value of SerializableValue type 'json'.", 400],
    ['Xml', true, undefined, "Must provide 'null' or String value for value of SerializableValue type 'Xml'.", 400],
    ['Object', '{}', { transient: 'true' }, "The property 'transient' should have a value of type 'boolean'.", 'IllegalArgumentException'],
    ['Number', 5, undefined, 'Cannot serialize value of abstract type number', 500],
    ['Number', 'x', undefined, "Cannot convert value 'x' of type 'Number' to java type java.lang.Number", 400],
    ['File', 'YWJj', undefined, 'Cannot create file without valueInfo.', 'IllegalArgumentException'],
    ['File', 'YWJj', {}, 'Cannot create file without filename! Please set a name into ValueInfo with key filename', 'IllegalArgumentException'],
    ['File', null, { filename: 'a' }, 'Provided value is not of File, InputStream or byte[] type.', 'IllegalArgumentException'],
    ['File', 'YWJj', { filename: 'a', mimeType: null }, "The provided mime type is null. Set a non-null value info property with key 'filename'", 'IllegalArgumentException'],
    ['File', 'YWJj', { filename: 'a', encoding: null }, "The provided encoding is null. Set a non-null value info property with key 'encoding'", 'IllegalArgumentException'],
    ['File', 'YWJj', { filename: 'a', transient: 'x' }, "The property 'transient' should have a value of type 'boolean'.", 'IllegalArgumentException'],
  ])('refuses %s %j (valueInfo %j): %s', (type, value, valueInfo, message, status) => {
    const error = (() => {
      try {
        from({ type, value, valueInfo });
      } catch (caught) {
        return caught;
      }
      return null;
    })();
    // A value type's own refusal escapes as Camunda's IllegalArgumentException; the rest carry their status.
    if (status === 'IllegalArgumentException') expect(error).toBeInstanceOf(IllegalArgumentException);
    else expect(error).toBeInstanceOf(VariableValueError);
    expect(error).toMatchObject(status === 'IllegalArgumentException' ? { message } : { message, status });
  });

  it.each([[['a']], ['text'], [5]])('fails to bind a valueInfo %j that is no object: 400 with no message', (valueInfo) => {
    expect(() => from({ type: 'String', value: 'a', valueInfo })).toThrow(expect.objectContaining({ status: 400, message: '', type: 'InvalidRequestException' }));
    expect(() => from({ value: 'a', valueInfo })).toThrow(expect.objectContaining({ status: 400, message: '' }));
  });
});

describe('toVariableValueDto', () => {
  const file = { bytes: Buffer.from('abc'), filename: 'a.txt', mimeType: 'text/plain', encoding: null };
  const javaObject = { serializedValue: 'rO0AB', objectTypeName: 'com.Foo', serializationDataFormat: 'application/x-java-serialized-object' };
  it.each<[TypedValue, boolean, unknown]>([
    [{ type: 'string', valueInfo: {}, value: 'a' }, true, { type: 'String', value: 'a', valueInfo: {} }],
    [{ type: 'integer', valueInfo: {}, value: 5, transient: true }, true, { type: 'Integer', value: 5, valueInfo: { transient: true } }],
    [{ type: 'short', valueInfo: {}, value: 1 }, true, { type: 'Short', value: 1, valueInfo: {} }],
    [{ type: 'long', valueInfo: {}, value: null }, true, { type: 'Long', value: null, valueInfo: {} }],
    [{ type: 'double', valueInfo: {}, value: 1.5 }, true, { type: 'Double', value: 1.5, valueInfo: {} }],
    [{ type: 'boolean', valueInfo: {}, value: false }, true, { type: 'Boolean', value: false, valueInfo: {} }],
    [{ type: 'date', valueInfo: {}, value: date }, true, { type: 'Date', value: formatRestDate(date), valueInfo: {} }],
    [{ type: 'bytes', valueInfo: {}, value: Buffer.from([0, 1, 255]) }, true, { type: 'Bytes', value: 'AAH/', valueInfo: {} }],
    [{ type: 'null', valueInfo: {}, value: null }, true, { type: 'Null', value: null, valueInfo: {} }],
    [{ type: 'json', valueInfo: {}, value: '{"a":1}' }, true, { type: 'Json', value: '{"a":1}', valueInfo: {} }],
    [{ type: 'xml', valueInfo: {}, value: '<a/>' }, false, { type: 'Xml', value: '<a/>', valueInfo: {} }],
    [{ type: 'file', valueInfo: {}, value: file }, true, { type: 'File', value: null, valueInfo: { filename: 'a.txt', mimeType: 'text/plain' } }],
    [json('{"k":1}', 'com.Foo'), false, { type: 'Object', value: '{"k":1}', valueInfo: { objectTypeName: 'com.Foo', serializationDataFormat: 'application/json' } }],
    [json('{"k":1}', 'com.Foo'), true, { type: 'Object', value: { k: 1 }, valueInfo: { objectTypeName: 'com.Foo', serializationDataFormat: 'application/json' } }],
    [json(null, null, null), true, { type: 'Object', value: null, valueInfo: {} }],
    [{ type: 'object', valueInfo: {}, value: javaObject }, true, { type: 'Object', value: 'rO0AB', valueInfo: { objectTypeName: 'com.Foo', serializationDataFormat: 'application/x-java-serialized-object' } }],
  ])('writes %j (deserializeValues %s)', (typed, deserializeValues, expected) => {
    expect(toVariableValueDto(typed, { deserializeValues })).toEqual(expected);
  });

  it('round-trips through the REST form', () => {
    const values: TypedValue[] = [{ type: 'date', valueInfo: {}, value: date }, { type: 'bytes', valueInfo: {}, value: Buffer.from('x') }, json('{}', 'a.B'), { type: 'long', valueInfo: {}, value: -3 }];
    for (const typed of values) expect(from(toVariableValueDto(typed, { deserializeValues: false }))).toEqual(typed);
  });
});
