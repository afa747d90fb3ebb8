import type { RawHeaders } from '../../debug/outgoing-call.js';

/** A header's name, lower-cased, and one of its values. */
export type HeaderPair = [name: string, value: string];

/**
 * A client's raw headers as name and value pairs, in their order: undici's flat list (strings or
 * Buffers) or "name: value\r\n" block, node:http's record (a list value gives one pair per item).
 */
export function headerPairs(headers: RawHeaders | null): HeaderPair[] {
  const pairs: HeaderPair[] = [];
  if (Array.isArray(headers)) {
    for (let i = 0; i + 1 < headers.length; i += 2)
      pairs.push([String(headers[i]).toLowerCase(), String(headers[i + 1])]);
  } else if (typeof headers === 'string') {
    for (const line of headers.split('\r\n')) {
      const colon = line.indexOf(':');
      if (colon > 0) pairs.push([line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim()]);
    }
  } else if (headers !== null && typeof headers === 'object') {
    const record = headers as Readonly<Record<string, unknown>>;
    for (const name of Object.keys(record)) {
      const value = record[name];
      for (const one of Array.isArray(value) ? value : [value]) pairs.push([name.toLowerCase(), String(one)]);
    }
  }
  return pairs;
}
