/**
 * The form of a path that routes are matched against (the "match path").
 *
 * Rule: every `%XX` escape (either hex case) is decoded, except that
 *   - `%2F` (an encoded `/`) and `%25` (an encoded `%`) stay encoded, so an encoded slash
 *     never separates segments and a decoded `%` never starts a new escape;
 *   - escaped bytes that do not form valid UTF-8 (`%E0%A4` alone, `%FF`) stay encoded;
 *   - a `%` that does not start an escape (`%zz`, a trailing `%A`) is a literal percent
 *     sign and becomes `%25`.
 * Escapes left encoded are written with upper-case hex, so every `%` in a match path starts
 * exactly one `%XX`. Nothing here throws. Route texts go through the same function, so a
 * route written `/café`, `/caf%C3%A9` or `/caf%c3%a9` means the same path.
 *
 * Parameter values are then fully decoded (`%2F` to `/`, `%25` to `%`), invalid UTF-8
 * bytes staying `%XX`: `/files/a%252Fb` gives `a%2Fb`, `/files/%E0%A4%A` gives `%E0%A4%A`.
 */
export function toMatchPath(path: string): string {
  return path.indexOf('%') === -1 ? path : decodePercent(path, true);
}

/** A captured parameter, fully decoded. */
export function decodeParameter(value: string): string {
  return value.indexOf('%') === -1 ? value : decodePercent(value, false);
}

export const ENCODED_SLASH = '%2F';

function decodePercent(text: string, keepDelimiters: boolean): string {
  let out = '';
  let i = 0;
  const n = text.length;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c !== 0x25) {
      const next = text.indexOf('%', i);
      const end = next === -1 ? n : next;
      out += text.slice(i, end);
      i = end;
      continue;
    }
    if (hexAt(text, i + 1) < 0 || hexAt(text, i + 2) < 0) {
      out += '%25';
      i += 1;
      continue;
    }
    const bytes: number[] = [];
    while (i + 2 < n && text.charCodeAt(i) === 0x25 && hexAt(text, i + 1) >= 0 && hexAt(text, i + 2) >= 0) {
      bytes.push(hexAt(text, i + 1) * 16 + hexAt(text, i + 2));
      i += 3;
    }
    out += decodeBytes(bytes, keepDelimiters);
  }
  return out;
}

function hexAt(text: string, index: number): number {
  const c = text.charCodeAt(index);
  if (c >= 0x30 && c <= 0x39) return c - 0x30;
  if (c >= 0x41 && c <= 0x46) return c - 0x37;
  if (c >= 0x61 && c <= 0x66) return c - 0x57;
  return -1;
}

function decodeBytes(bytes: readonly number[], keepDelimiters: boolean): string {
  let out = '';
  let i = 0;
  while (i < bytes.length) {
    const b = bytes[i];
    if (b < 0x80) {
      out += keepDelimiters && (b === 0x2f || b === 0x25) ? encodeByte(b) : String.fromCharCode(b);
      i += 1;
      continue;
    }
    const length = utf8SequenceLength(bytes, i);
    if (length === 0) {
      out += encodeByte(b);
      i += 1;
      continue;
    }
    let codePoint = length === 2 ? b & 0x1f : length === 3 ? b & 0x0f : b & 0x07;
    for (let k = 1; k < length; k++) codePoint = (codePoint << 6) | (bytes[i + k] & 0x3f);
    out += String.fromCodePoint(codePoint);
    i += length;
  }
  return out;
}

/** The length of the valid UTF-8 sequence starting at `i`, or 0 (RFC 3629 table 3-7). */
function utf8SequenceLength(bytes: readonly number[], i: number): number {
  const b = bytes[i];
  let length: number;
  let low = 0x80;
  let high = 0xbf;
  if (b >= 0xc2 && b <= 0xdf) length = 2;
  else if (b >= 0xe0 && b <= 0xef) {
    length = 3;
    if (b === 0xe0) low = 0xa0;
    if (b === 0xed) high = 0x9f;
  } else if (b >= 0xf0 && b <= 0xf4) {
    length = 4;
    if (b === 0xf0) low = 0x90;
    if (b === 0xf4) high = 0x8f;
  } else return 0;
  if (i + length > bytes.length) return 0;
  if (bytes[i + 1] < low || bytes[i + 1] > high) return 0;
  for (let k = 2; k < length; k++) if (bytes[i + k] < 0x80 || bytes[i + k] > 0xbf) return 0;
  return length;
}

function encodeByte(b: number): string {
  return `%${b < 16 ? '0' : ''}${b.toString(16).toUpperCase()}`;
}
