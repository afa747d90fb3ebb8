import { BoundedCache } from '../bounded-cache.js';

/**
 * `clean` memoized for short texts: the texts a profile redacts (header values, log messages,
 * context strings, URLs) are mostly the same from one request to the next, and a lookup costs less
 * than the patterns. Bounded: the memo is emptied when full; long texts (bodies) are never kept.
 */
export function memoizeText(
  clean: (text: string) => string,
  maxEntries = 4096,
  maxLength = 512,
): (text: string) => string {
  const memo = new BoundedCache<string, string>(maxEntries);
  return (text) => {
    if (text.length > maxLength) return clean(text);
    let result = memo.get(text);
    if (result === undefined) result = memo.set(text, clean(text));
    return result;
  };
}
