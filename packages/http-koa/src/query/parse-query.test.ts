import { describe, expect, it } from 'vitest';
import { InvalidRequestException } from '../errors/rest-exception.js';
import { jaxRsFlag, parseBodyQuery, parseQuery, parseSortingBody, type QuerySpec } from './parse-query.js';

const SPEC: QuerySpec = {
  params: { name: 'string', ids: 'stringList', active: 'boolean', version: 'integer', after: 'date' },
  sortBy: ['id', 'name'],
};

function failure(query: Record<string, unknown>): string {
  try {
    parseQuery(query, SPEC);
  } catch (error) {
    expect(error).toBeInstanceOf(InvalidRequestException);
    return (error as Error).message;
  }
  throw new Error('expected a failure');
}

describe('parseQuery', () => {
  it('converts each kind, keeps the first of repeated values and ignores unknown names', () => {
    const parsed = parseQuery(
      { name: ['a', 'b'], ids: 'x,y', active: 'false', version: '3', after: '2013-01-23T14:42:45.000+0200', other: '1' },
      SPEC,
    );

    expect(parsed.params).toEqual({ name: 'a', ids: ['x', 'y'], active: false, version: 3, after: new Date('2013-01-23T12:42:45.000Z') });
    expect(parsed.sorting).toBeUndefined();
    expect(parsed.page).toEqual({});
  });

  it('passes an empty list on, except for an optional list (no criterion then)', () => {
    const spec: QuerySpec = { params: { ids: 'stringList', tenantIdIn: 'optionalList' } };

    expect(parseQuery({ ids: '', tenantIdIn: '' }, spec).params).toEqual({ ids: [] });
    expect(parseQuery({ tenantIdIn: 'a,b' }, spec).params).toEqual({ tenantIdIn: ['a', 'b'] });
  });

  it('reads paging and a sort criterion', () => {
    const parsed = parseQuery({ firstResult: '10', maxResults: '5', sortBy: 'name', sortOrder: 'desc' }, SPEC);

    expect(parsed.page).toEqual({ firstResult: 10, maxResults: 5 });
    expect(parsed.sorting).toEqual([{ sortBy: 'name', sortOrder: 'desc' }]);
  });

  it('turns an empty list into no values', () => {
    expect(parseQuery({ ids: '' }, SPEC).params.ids).toEqual([]);
  });

  it.each([
    [{ active: 'yes' }, "Cannot set query parameter 'active' to value 'yes': Cannot convert value yes to java type java.lang.Boolean"],
    [{ version: '1.5' }, "Cannot set query parameter 'version' to value '1.5': Cannot convert value 1.5 to java type java.lang.Integer"],
    [{ version: '3000000000' }, "Cannot set query parameter 'version' to value '3000000000': Cannot convert value 3000000000 to java type java.lang.Integer"],
    [{ after: 'now' }, 'Cannot set query parameter \'after\' to value \'now\': Cannot convert value "now" to java type java.util.Date'],
    [{ sortBy: 'age', sortOrder: 'asc' }, "Cannot set query parameter 'sortBy' to value 'age'"],
    [{ sortBy: 'id' }, 'Only a single sorting parameter specified. sortBy and sortOrder required'],
  ])('rejects %o', (query, message) => {
    expect(failure(query)).toBe(message);
  });
});

describe('parseSortingBody', () => {
  it('reads several criteria in order and names a bad one', () => {
    expect(parseSortingBody([{ sortBy: 'name', sortOrder: 'asc' }, { sortBy: 'id', sortOrder: 'desc' }], ['id', 'name'])).toEqual([
      { sortBy: 'name', sortOrder: 'asc' },
      { sortBy: 'id', sortOrder: 'desc' },
    ]);
    // As Camunda's query takes them: an unknown sortBy orders nothing, so its direction has no ordering.
    expect(() => parseSortingBody([{ sortBy: 'age', sortOrder: 'asc' }], ['id'])).toThrow('You should call any of the orderBy methods first before specifying a direction: currentOrderingProperty is null');
    expect(() => parseSortingBody([{ sortBy: 'id', sortOrder: 'asc' }, { sortBy: 'age', sortOrder: 'asc' }], ['id'])).toThrow(
      'Invalid query: can specify only one direction desc() or asc() for an ordering constraint: direction is not null',
    );
    expect(() => parseSortingBody([{ sortBy: 'id', sortOrder: 'up' }], ['id'])).toThrow('Invalid query: call asc() or desc() after using orderByXX(): direction is null');
    expect(parseSortingBody([{ sortBy: 'id' }, { sortOrder: 'desc' }], ['id'])).toEqual([{ sortBy: 'id', sortOrder: 'desc' }]);
  });
});

describe('parseBodyQuery', () => {
  const spec: QuerySpec = { params: { name: 'string' }, sortBy: ['id', 'name'] };

  it("takes a body's own sortBy and sortOrder (Camunda's DTO setters) before its sorting list", () => {
    expect(parseBodyQuery({ sortBy: 'name', sortOrder: 'desc', sorting: [{ sortBy: 'id', sortOrder: 'asc' }] }, spec)).toEqual({
      sorting: [{ sortBy: 'name', sortOrder: 'desc' }, { sortBy: 'id', sortOrder: 'asc' }],
    });
    expect(() => parseBodyQuery({ sortBy: 'age', sortOrder: 'asc' }, spec)).toThrow('sortBy parameter has invalid value: age');
    expect(() => parseBodyQuery({ sortBy: 'id', sortOrder: 'up' }, spec)).toThrow('sortOrder parameter has invalid value: up');
    expect(() => parseBodyQuery({ sortBy: 'id' }, spec)).toThrow('Only a single sorting parameter specified. sortBy and sortOrder required');
  });
});

describe('jaxRsFlag', () => {
  it('reads a boolean query parameter as JAX-RS does: "true" in any case, anything else false, absent the default', () => {
    expect(jaxRsFlag({ a: 'TRUE' }, 'a', false)).toBe(true);
    expect(jaxRsFlag({ a: 'yes' }, 'a', true)).toBe(false);
    expect(jaxRsFlag({ a: ['true', 'false'] }, 'a', false)).toBe(true);
    expect(jaxRsFlag({}, 'a', true)).toBe(true);
    expect(jaxRsFlag({}, 'a', false)).toBe(false);
  });
});
