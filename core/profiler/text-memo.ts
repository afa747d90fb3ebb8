/**
 * `clean` memoized for short texts: the texts a profile redacts (header values, log messages,
 * context strings, URLs) are mostly the same from one request to the next, and a lookup costs less
 * than the patterns. Bounded: the memo is emptied when full; long texts (bodies) are never kept.
 */
export function memoizeText(clean: (text: string) => string, maxEntries = 4096, maxLength = 512): (text: string) => string {
  const memo = new Map<string, string>();
  return (text) => {
    if (text.length > maxLength) return clean(text);
    let result = memo.get(text);
    if (result === undefined) {
      if (memo.size >= maxEntries) memo.clear();
      memo.set(text, result = clean(text));
    }
    return result;
  };
}
