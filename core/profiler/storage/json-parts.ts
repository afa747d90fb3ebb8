/**
 * The checks that a value is plain data of the shape a panel writer expects (panel-json.ts):
 * otherwise the writer leaves it to JSON.stringify.
 */

/** A plain object, whose JSON is its own enumerable fields (no toJSON of a class of its own). */
export function isPlain(value: unknown): value is object {
  if (typeof value !== 'object' || value === null) return false;
  const proto = Object.getPrototypeOf(value);
  return (proto === Object.prototype || proto === null) && typeof (value as { toJSON?: unknown }).toJSON !== 'function';
}

/** Whether `value`'s own enumerable keys are exactly `keys`, in that order (the order JSON.stringify writes them in). */
export function hasKeys(value: object, keys: readonly string[]): boolean {
  let i = 0;
  for (const key in value) {
    if (key !== keys[i] || !Object.prototype.hasOwnProperty.call(value, key)) return false;
    i++;
  }
  return i === keys.length;
}

/** A plain array (its JSON is its items'). */
export function isPlainArray(value: unknown): value is unknown[] {
  return Array.isArray(value) && Object.getPrototypeOf(value) === Array.prototype && typeof (value as { toJSON?: unknown }).toJSON !== 'function';
}
