import { describe, expect, it } from 'vitest';
import type { TypedValue } from './typed-value.js';
import { fromStorage, toStorage, type VariableStorageRow } from './variable-storage.js';

const empty = { text: null, text2: null, long_value: null, double_value: null, bytes: null };

const cases: [string, TypedValue, Partial<VariableStorageRow>][] = [
  ['boolean true', { type: 'boolean', valueInfo: {}, value: true }, { long_value: 1 }],
  ['boolean false', { type: 'boolean', valueInfo: {}, value: false }, { long_value: 0 }],
  ['boolean null', { type: 'boolean', valueInfo: {}, value: null }, {}],
  ['short', { type: 'short', valueInfo: {}, value: -12 }, { long_value: -12, text: '-12' }],
  ['integer', { type: 'integer', valueInfo: {}, value: 2147483647 }, { long_value: 2147483647, text: '2147483647' }],
  ['long', { type: 'long', valueInfo: {}, value: Number.MAX_SAFE_INTEGER }, { long_value: Number.MAX_SAFE_INTEGER, text: '9007199254740991' }],
  ['integer null', { type: 'integer', valueInfo: {}, value: null }, {}],
  ['double', { type: 'double', valueInfo: {}, value: 1.5 }, { double_value: 1.5 }],
  ['double null', { type: 'double', valueInfo: {}, value: null }, {}],
  ['date', { type: 'date', valueInfo: {}, value: new Date(1358944965000) }, { long_value: 1358944965000 }],
  ['date null', { type: 'date', valueInfo: {}, value: null }, {}],
  ['string', { type: 'string', valueInfo: {}, value: 'hello' }, { text: 'hello' }],
  ['empty string', { type: 'string', valueInfo: {}, value: '' }, { text: '' }],
  ['string null', { type: 'string', valueInfo: {}, value: null }, {}],
  ['bytes', { type: 'bytes', valueInfo: {}, value: Buffer.from([0, 1, 255]) }, { bytes: Buffer.from([0, 1, 255]) }],
  ['bytes null', { type: 'bytes', valueInfo: {}, value: null }, {}],
  ['null', { type: 'null', valueInfo: {}, value: null }, {}],
  ['json', { type: 'json', valueInfo: {}, value: '{"a":[1,2]}' }, { text: '{"a":[1,2]}' }],
  ['xml', { type: 'xml', valueInfo: {}, value: '<a/>' }, { text: '<a/>' }],
  [
    'object',
    { type: 'object', valueInfo: {}, value: { serializedValue: '{"k":"v"}', objectTypeName: 'com.example.Foo', serializationDataFormat: 'application/json' } },
    { text: '{"k":"v"}', text2: '{"objectTypeName":"com.example.Foo","serializationDataFormat":"application/json"}' },
  ],
  [
    'object without type name and format',
    { type: 'object', valueInfo: {}, value: { serializedValue: null, objectTypeName: null, serializationDataFormat: null } },
    { text2: '{"objectTypeName":null,"serializationDataFormat":null}' },
  ],
  [
    'file',
    { type: 'file', valueInfo: {}, value: { bytes: Buffer.from('abc'), filename: 'a.txt', mimeType: 'text/plain', encoding: 'UTF-8' } },
    { bytes: Buffer.from('abc'), text: 'a.txt', text2: 'text/plain#UTF-8' },
  ],
  ['file, mime type only', { type: 'file', valueInfo: {}, value: { bytes: Buffer.from(''), filename: 'a', mimeType: 'text/plain', encoding: null } }, { bytes: Buffer.from(''), text: 'a', text2: 'text/plain#' }],
  ['file, encoding only', { type: 'file', valueInfo: {}, value: { bytes: Buffer.from('x'), filename: 'a', mimeType: null, encoding: 'UTF-8' } }, { bytes: Buffer.from('x'), text: 'a', text2: '#UTF-8' }],
  ['file, neither', { type: 'file', valueInfo: {}, value: { bytes: Buffer.from('x'), filename: 'a', mimeType: null, encoding: null } }, { bytes: Buffer.from('x'), text: 'a' }],
];

describe('variable storage', () => {
  it.each(cases)('%s: writes the expected columns and reads back the same value', (_label, typed, columns) => {
    const row = toStorage(typed);
    expect(row).toEqual({ type: typed.type, ...empty, ...columns });
    expect(fromStorage(row)).toEqual(typed);
  });

  it('does not store the transient flag', () => {
    expect(fromStorage(toStorage({ type: 'string', valueInfo: {}, value: 'x', transient: true }))).toEqual({ type: 'string', valueInfo: {}, value: 'x' });
  });

  it('reads numeric columns that a driver returns as strings', () => {
    const row = { ...empty, type: 'long', long_value: '42' as unknown as number };
    expect(fromStorage(row)).toEqual({ type: 'long', valueInfo: {}, value: 42 });
  });

  it('refuses an unknown stored type', () => {
    expect(() => fromStorage({ ...empty, type: 'serializable' })).toThrow("Unknown variable type 'serializable' in storage");
  });
});
