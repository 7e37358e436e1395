/** Camunda Spin's JSON API over a parsed JSON value (`S(x).prop('a').numberValue()`). */
export interface SpinJson {
  prop(name: string): SpinJson;
  hasProp(name: string): boolean;
  elements(): SpinJson[];
  stringValue(): string;
  numberValue(): number;
  boolValue(): boolean;
  isNull(): boolean;
  isObject(): boolean;
  isArray(): boolean;
  isString(): boolean;
  isNumber(): boolean;
  isBoolean(): boolean;
  value(): unknown;
  toString(): string;
}

/** Wraps a JSON value (or parses JSON text given as a string with `S`). */
export function spinJson(value: unknown): SpinJson {
  const isObject = value !== null && typeof value === 'object' && !Array.isArray(value);
  const expect = <T>(ok: boolean, kind: string, result: () => T): T => {
    if (!ok) throw new Error(`Expected ${kind}, got ${JSON.stringify(value)}`);
    return result();
  };
  return {
    prop: (name) => expect(isObject && name in (value as object), `a property '${name}'`, () => spinJson((value as Record<string, unknown>)[name])),
    hasProp: (name) => isObject && name in (value as object),
    elements: () => expect(Array.isArray(value), 'an array', () => (value as unknown[]).map(spinJson)),
    stringValue: () => expect(typeof value === 'string', 'a string', () => value as string),
    numberValue: () => expect(typeof value === 'number', 'a number', () => value as number),
    boolValue: () => expect(typeof value === 'boolean', 'a boolean', () => value as boolean),
    isNull: () => value === null,
    isObject: () => isObject,
    isArray: () => Array.isArray(value),
    isString: () => typeof value === 'string',
    isNumber: () => typeof value === 'number',
    isBoolean: () => typeof value === 'boolean',
    value: () => value,
    toString: () => JSON.stringify(value),
  };
}

/** Spin's `S(…)`: JSON text is parsed, a Spin value passes through, anything else is wrapped. */
export function S(input: unknown): SpinJson {
  if (typeof input === 'string') return spinJson(JSON.parse(input));
  if (input !== null && typeof input === 'object' && typeof (input as SpinJson).prop === 'function') return input as SpinJson;
  return spinJson(input);
}
