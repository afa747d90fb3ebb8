import { validateHeaderName, validateHeaderValue } from 'node:http';

export interface RefusedHeader {
  name: string;
  /** why node:http will not write it, one clause without the final period */
  why: string;
}

/** The first response header node:http refuses to write, or null when it would write them all. */
export function findRefusedHeader(headers: Record<string, string>): RefusedHeader | null {
  for (const name in headers) {
    try {
      validateHeaderName(name);
    } catch {
      return { name, why: 'its name is not a valid HTTP token' };
    }
    const value = headers[name];
    try {
      validateHeaderValue(name, value);
    } catch {
      return { name, why: whyValueRefused(String(value)) };
    }
  }
  return null;
}

function whyValueRefused(value: string): string {
  const control = /[\0-\x08\n-\x1f\x7f]/.exec(value);
  if (control)
    return `its value holds the control character U+${codePoint(control[0])} (a CR or LF would split the response head)`;
  const wide = /[^\0-\xff]/u.exec(value);
  if (wide)
    return `its value holds U+${codePoint(wide[0])}, a character outside Latin-1 (encode it, e.g. as RFC 8187 UTF-8'' or percent-encoding)`;
  return 'its value is not one node:http can write';
}

function codePoint(char: string): string {
  return (char.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0');
}
