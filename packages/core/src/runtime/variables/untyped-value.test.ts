import { describe, expect, it } from 'vitest';
import type { TypedValue } from './typed-value.js';
import { fitsNumberType } from './typed-value.js';
import { toJavaScriptValue, untypedValue } from './untyped-value.js';

describe('untypedValue', () => {
  const date = new Date(0);
  it.each<[string, unknown, TypedValue]>([
    ['string', 'a', { type: 'string', valueInfo: {}, value: 'a' }],
    ['boolean', false, { type: 'boolean', valueInfo: {}, value: false }],
    ['int32', -2147483648, { type: 'integer', valueInfo: {}, value: -2147483648 }],
    ['beyond int32', 2147483648, { type: 'long', valueInfo: {}, value: 2147483648 }],
    ['fraction', 1.25, { type: 'double', valueInfo: {}, value: 1.25 }],
    ['beyond safe integers', 2 ** 60, { type: 'double', valueInfo: {}, value: 2 ** 60 }],
    ['bigint', 5n, { type: 'integer', valueInfo: {}, value: 5 }],
    ['date', date, { type: 'date', valueInfo: {}, value: date }],
    ['null', null, { type: 'null', valueInfo: {}, value: null }],
    ['undefined', undefined, { type: 'null', valueInfo: {}, value: null }],
    ['buffer', Buffer.from('x'), { type: 'bytes', valueInfo: {}, value: Buffer.from('x') }],
    ['Uint8Array', new Uint8Array([1]), { type: 'bytes', valueInfo: {}, value: Buffer.from([1]) }],
    ['object', { a: [1, 'b'] }, { type: 'json', valueInfo: {}, value: '{"a":[1,"b"]}' }],
    ['array', [1, null], { type: 'json', valueInfo: {}, value: '[1,null]' }],
  ])('infers %s', (_label, value, expected) => {
    expect(untypedValue(value)).toEqual(expected);
  });

  it('marks transient values', () => {
    expect(untypedValue(1, true)).toEqual({ type: 'integer', valueInfo: {}, value: 1, transient: true });
    expect(untypedValue(1, false)).toEqual({ type: 'integer', valueInfo: {}, value: 1 });
  });

  it('refuses values without a variable type', () => {
    expect(() => untypedValue(new Map())).toThrow('Cannot infer a variable type for a value of type Map');
    expect(() => untypedValue(() => 1)).toThrow('Cannot infer a variable type for a value of type function');
    expect(() => untypedValue(2n ** 64n)).toThrow(TypeError);
  });
});

describe('toJavaScriptValue', () => {
  it.each<[string, TypedValue, unknown]>([
    ['a string', { type: 'string', valueInfo: {}, value: 's' }, 's'],
    ['json, parsed', { type: 'json', valueInfo: {}, value: '{"a":1}' }, { a: 1 }],
    ['unparsable json, as text', { type: 'json', valueInfo: {}, value: '{' }, '{'],
    ['xml, as text', { type: 'xml', valueInfo: {}, value: '<a/>' }, '<a/>'],
    ['a JSON object, parsed', { type: 'object', valueInfo: {}, value: { serializedValue: '[1]', objectTypeName: 'java.util.ArrayList', serializationDataFormat: 'application/json' } }, [1]],
    ['a Java object, as text', { type: 'object', valueInfo: {}, value: { serializedValue: 'rO0=', objectTypeName: 'X', serializationDataFormat: 'application/x-java-serialized-object' } }, 'rO0='],
    ['a null object', { type: 'object', valueInfo: {}, value: { serializedValue: null, objectTypeName: null, serializationDataFormat: 'application/json' } }, null],
    ['a file, as its bytes', { type: 'file', valueInfo: {}, value: { bytes: Buffer.from('f'), filename: 'f', mimeType: null, encoding: null } }, Buffer.from('f')],
  ])('gives %s', (_label, typed, expected) => {
    expect(toJavaScriptValue(typed)).toEqual(expected);
  });
});

describe('fitsNumberType', () => {
  it.each<[Parameters<typeof fitsNumberType>[0], number, boolean]>([
    ['short', 32767, true], ['short', 32768, false], ['short', -32768, true], ['short', 1.5, false],
    ['integer', 2147483647, true], ['integer', 2147483648, false],
    ['long', Number.MAX_SAFE_INTEGER, true], ['long', 2 ** 53, false], ['double', 1.5, true],
  ])('%s %d → %s', (type, value, fits) => {
    expect(fitsNumberType(type, value)).toBe(fits);
  });
});
