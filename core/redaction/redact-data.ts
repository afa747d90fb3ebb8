import { REDACTED } from './redacted.js';
import { looksSecret } from './secret-names.js';

/** Deeper than this, a value is not walked: no input can overflow the stack. */
export const MAX_DEPTH = 64;
/** More values than this in one document are not walked either (a shared object met many times). */
export const MAX_VALUES = 50_000;

export interface DataRedaction {
  /** a copy (null-prototype objects, so that "__proto__" stays a name) with secrets replaced */
  value: unknown;
  changed: boolean;
  /** why part of it was replaced unread ("nested deeper than 64 levels"); null when all was read */
  problem: string | null;
}

/**
 * A plain-data copy of `value` as JSON.stringify would see it, with the value of every key that
 * looks secret replaced at any depth (`onSecret` gets its path and value) and every string passed
 * through `strings`. Cycles become "[circular]"; below MAX_DEPTH, a placeholder.
 */
export function redactData(
  value: unknown,
  strings: (text: string) => string,
  onSecret: (path: string, value: unknown) => void,
  isSecretKey: (path: string, key: string) => boolean = (_, key) => looksSecret(key),
): DataRedaction {
  let changed = false;
  let problem: string | null = null;
  let count = 0;
  // The objects being walked, outermost first: a short list (MAX_DEPTH at most), cheaper than a set.
  const ancestors: object[] = [];
  const unread = (why: string): string => {
    problem ??= why;
    changed = true;
    return `[not stored: ${why}]`;
  };
  const walk = (item: unknown, path: string, depth: number): unknown => {
    if (typeof item === 'string') {
      const clean = strings(item);
      if (clean !== item) changed = true;
      return clean;
    }
    if (typeof item === 'bigint') return String(item);
    if (item === null || typeof item !== 'object') return item;
    if (depth >= MAX_DEPTH) return unread(`nested deeper than ${MAX_DEPTH} levels`);
    if (++count > MAX_VALUES) return unread(`more than ${MAX_VALUES} values`);
    if (ancestors.includes(item)) {
      changed = true;
      return '[circular]';
    }
    const toJson = (item as { toJSON?: unknown }).toJSON;
    if (typeof toJson === 'function') {
      try {
        return walk(toJson.call(item), path, depth + 1);
      } catch {
        return unread('its toJSON() failed');
      }
    }
    ancestors.push(item);
    try {
      if (Array.isArray(item)) return item.map((element, i) => walk(element, `${path}[${i}]`, depth + 1));
      const copy: Record<string, unknown> = Object.create(null);
      for (const key of Object.keys(item)) {
        const at = path ? `${path}.${key}` : key;
        let element: unknown;
        try {
          element = (item as Record<string, unknown>)[key];
        } catch {
          copy[key] = unread(`reading "${key}" failed`);
          continue;
        }
        if (isSecretKey(at, key) && element !== null && element !== undefined && element !== '') {
          onSecret(at, element);
          copy[key] = REDACTED;
          changed = true;
        } else {
          copy[key] = walk(element, at, depth + 1);
        }
      }
      return copy;
    } finally {
      ancestors.pop();
    }
  };
  const copy = walk(value, '', 0);
  return { value: copy, changed, problem };
}
