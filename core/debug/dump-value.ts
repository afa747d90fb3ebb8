/**
 * A value as dump() stores it: plain JSON data that keeps what a reader needs (types, class names,
 * cycles), limited in depth and size so that a dumped request, socket or huge array stays small.
 */
export type DumpNode =
  | { type: 'null' | 'undefined' }
  | { type: 'boolean' | 'number' | 'bigint' | 'symbol'; value: string }
  | { type: 'string'; value: string; length: number }
  | { type: 'function'; name: string }
  | { type: 'date'; value: string }
  | { type: 'error'; class: string; message: string }
  | { type: 'array'; class: string; length: number; items: DumpNode[] }
  | { type: 'map' | 'set'; class: string; length: number; items: [DumpNode, DumpNode][] }
  | { type: 'object'; class: string; entries: [string, DumpNode][]; more: number }
  | { type: 'circular'; class: string }
  | { type: 'cut'; class: string; why: 'depth' | 'size' };

export const DUMP_MAX_DEPTH = 6;
/** items of an array, map or set, keys of an object, shown at each level */
export const DUMP_MAX_ITEMS = 50;
export const DUMP_MAX_STRING = 2_000;
/** nodes in one dump, all levels together */
export const DUMP_MAX_NODES = 1_000;

/** Walks `value` once, reading own enumerable properties only; a throwing getter is shown, never thrown. */
export function dumpValue(value: unknown): DumpNode {
  let nodes = 0;
  const ancestors = new Set<object>();
  const walk = (item: unknown, depth: number): DumpNode => {
    nodes++;
    switch (typeof item) {
      case 'undefined':
        return { type: 'undefined' };
      case 'boolean':
        return { type: 'boolean', value: String(item) };
      case 'number':
        return { type: 'number', value: Object.is(item, -0) ? '-0' : String(item) };
      case 'bigint':
        return { type: 'bigint', value: `${item}n` };
      case 'symbol':
        return { type: 'symbol', value: item.toString() };
      case 'string':
        return {
          type: 'string',
          value: item.length > DUMP_MAX_STRING ? item.slice(0, DUMP_MAX_STRING) : item,
          length: item.length,
        };
      case 'function':
        return { type: 'function', name: item.name || '(anonymous)' };
    }
    if (item === null) return { type: 'null' };
    const object = item as object;
    const name = className(object);
    if (ancestors.has(object)) return { type: 'circular', class: name };
    if (object instanceof Date)
      return { type: 'date', value: Number.isNaN(object.getTime()) ? 'Invalid Date' : object.toISOString() };
    if (object instanceof Error) return { type: 'error', class: name, message: String(object.message) };
    if (depth >= DUMP_MAX_DEPTH) return { type: 'cut', class: name, why: 'depth' };
    if (nodes > DUMP_MAX_NODES) return { type: 'cut', class: name, why: 'size' };
    ancestors.add(object);
    try {
      if (Array.isArray(object) || ArrayBuffer.isView(object)) {
        const list = object as ArrayLike<unknown>;
        const items: DumpNode[] = [];
        for (let i = 0; i < Math.min(list.length, DUMP_MAX_ITEMS); i++) items.push(walk(list[i], depth + 1));
        return { type: 'array', class: name, length: list.length, items };
      }
      if (object instanceof Map || object instanceof Set) {
        const items: [DumpNode, DumpNode][] = [];
        for (const entry of object instanceof Map ? object.entries() : object.entries()) {
          if (items.length === DUMP_MAX_ITEMS) break;
          items.push([walk(entry[0], depth + 1), walk(entry[1], depth + 1)]);
        }
        return { type: object instanceof Map ? 'map' : 'set', class: name, length: object.size, items };
      }
      let keys: string[];
      try {
        keys = Object.keys(object);
      } catch (error) {
        return {
          type: 'error',
          class: name,
          message: `its keys cannot be read: ${String((error as Error)?.message ?? error)}`,
        };
      }
      const entries: [string, DumpNode][] = [];
      for (const key of keys.slice(0, DUMP_MAX_ITEMS))
        entries.push([key, readProperty(object, key, (v) => walk(v, depth + 1))]);
      return { type: 'object', class: name, entries, more: Math.max(0, keys.length - DUMP_MAX_ITEMS) };
    } finally {
      ancestors.delete(object);
    }
  };
  return walk(value, 0);
}

function readProperty(object: object, key: string, walk: (value: unknown) => DumpNode): DumpNode {
  let value: unknown;
  try {
    value = (object as Record<string, unknown>)[key];
  } catch (error) {
    return { type: 'error', class: 'getter threw', message: String((error as Error)?.message ?? error) };
  }
  return walk(value);
}

/** The constructor's name ("Object" for a plain object, "null prototype" for Object.create(null)). */
function className(object: object): string {
  let proto: unknown;
  try {
    proto = Object.getPrototypeOf(object);
  } catch {
    return 'Object';
  }
  if (proto === null) return 'null prototype';
  const ctor = (proto as { constructor?: unknown }).constructor;
  return typeof ctor === 'function' && ctor.name ? ctor.name : 'Object';
}
