/** The hash body-fingerprint.ts and html-fingerprint.ts build a structure's fingerprint with, and the characters they read. */

// FNV-1a, 32 bits, over UTF-16 code units.
export const FNV_OFFSET = 0x811c9dc5;
export const step = (hash: number, code: number) => Math.imul(hash ^ code, 0x01000193);
export const hex = (hash: number) => (hash >>> 0).toString(16).padStart(8, '0');

/** An id, a class list or a key: without the request's token, each run of digits as one 0, spaces collapsed and trimmed. */
export function mixValue(hash: number, value: string, token: string | null): number {
  const text = token && value.includes(token) ? value.replaceAll(token, '~') : value;
  return mixText(hash, text, 0, text.length);
}

/** mixValue() of text[from, to), read in place. */
export function mixText(hash: number, text: string, from: number, to: number): number {
  let space = false;
  let digit = false;
  let empty = true;
  for (let i = from; i < to; i++) {
    const c = text.charCodeAt(i);
    const isDigit = c >= 48 && c <= 57;
    if (isSpace(c)) {
      space = !empty;
    } else if (!(isDigit && digit)) {
      // a run of digits counts once
      hash = step(space ? step(hash, 32) : hash, isDigit ? 48 : c);
      space = false;
      empty = false;
    }
    digit = isDigit;
  }
  return hash;
}

export function isLetter(code: number): boolean {
  return (code >= 97 && code <= 122) || (code >= 65 && code <= 90);
}

/** space, tab, line feed, form feed, carriage return */
export function isSpace(code: number): boolean {
  return code === 32 || (code >= 9 && code <= 13);
}

/** What `\s` matches in a regular expression: isSpace() and the Unicode spaces. */
export function isAnySpace(code: number): boolean {
  if (code < 128) return code === 32 || (code >= 9 && code <= 13);
  return (
    code === 0xa0 ||
    code === 0x1680 ||
    (code >= 0x2000 && code <= 0x200a) ||
    code === 0x2028 ||
    code === 0x2029 ||
    code === 0x202f ||
    code === 0x205f ||
    code === 0x3000 ||
    code === 0xfeff
  );
}

/** Whether text[at, at + word.length) is `word` (lower case ASCII letters), A-Z as a-z. */
export function isWordAt(text: string, at: number, word: string): boolean {
  for (let k = 0; k < word.length; k++) {
    const c = text.charCodeAt(at + k);
    if ((c >= 65 && c <= 90 ? c + 32 : c) !== word.charCodeAt(k)) return false;
  }
  return true;
}
