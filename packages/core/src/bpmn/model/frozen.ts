const refuse = (): never => {
  throw new TypeError('A ProcessModel is immutable');
};

/** A Map whose set, delete and clear throw: Object.freeze alone leaves a Map's entries writable. */
export function frozenMap<K, V>(entries: Iterable<readonly [K, V]>): ReadonlyMap<K, V> {
  const map = new Map<K, V>(entries);
  Object.defineProperties(map, { set: { value: refuse }, delete: { value: refuse }, clear: { value: refuse } });
  return Object.freeze(map);
}

/** Freezes an array after copying it, so that the caller's array stays its own. */
export function frozenList<T>(values: Iterable<T>): readonly T[] {
  return Object.freeze([...values]);
}
