import type { BodyStructure } from './profile.js';

/** Bodies longer than this (in characters) are not fingerprinted: the diff row then shows "(none)". */
export const FINGERPRINT_CAP = 256 * 1024;

/**
 * The structure of an HTML or JSON response body as a short hash, so that `replay --diff` and
 * `profiles diff` see a page or a document whose shape changed while its status, title and size did not.
 * HTML: the sequence of start and end tags with their id and classes; text, comments, other attributes
 * and the content of <script> and <style> are left out. JSON: keys and value types, never values.
 * In ids, classes and keys the request's own token is dropped and each run of digits counts as one 0,
 * so tokens, times, durations and ports do not count. One linear scan, no parser: this runs for every
 * profiled request, when the profile is built (kernel.terminate), after the response was sent.
 * Other content types, streams and bodies over FINGERPRINT_CAP: null.
 */
export function bodyFingerprint(contentType: string | null, body: unknown, token: string | null): BodyStructure | null {
  const type = (contentType ?? '').split(';')[0]!.trim().toLowerCase();
  const kind = type === 'text/html' ? 'html' : type === 'application/json' || type.endsWith('+json') ? 'json' : null;
  if (kind === null) return null;
  let text: string;
  if (typeof body === 'string') text = body;
  else if (Buffer.isBuffer(body) && body.length <= FINGERPRINT_CAP) text = body.toString('utf8');
  else return null;
  if (text.length > FINGERPRINT_CAP) return null;
  return kind === 'html' ? htmlFingerprint(text, token) : jsonFingerprint(text, token);
}

// FNV-1a, 32 bits, over UTF-16 code units.
const FNV_OFFSET = 0x811c9dc5;
const step = (hash: number, code: number) => Math.imul(hash ^ code, 0x01000193);
const hex = (hash: number) => (hash >>> 0).toString(16).padStart(8, '0');

/** A tag name, read in place (no slice: this is the hot loop), A-Z as a-z. */
function mixLowerCase(hash: number, text: string, from: number, to: number): number {
  for (let i = from; i < to; i++) {
    const c = text.charCodeAt(i);
    hash = step(hash, c >= 65 && c <= 90 ? c + 32 : c);
  }
  return hash;
}

/** An id, a class list or a key: without the request's token, each run of digits as one 0, spaces collapsed and trimmed. */
function mixValue(hash: number, value: string, token: string | null): number {
  const text = token && value.includes(token) ? value.replaceAll(token, '~') : value;
  let space = false;
  let digit = false;
  let empty = true;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    const isDigit = c >= 48 && c <= 57;
    if (isSpace(c)) {
      space = !empty;
    } else if (!(isDigit && digit)) { // a run of digits counts once
      hash = step(space ? step(hash, 32) : hash, isDigit ? 48 : c);
      space = false;
      empty = false;
    }
    digit = isDigit;
  }
  return hash;
}

function isLetter(code: number): boolean {
  return (code >= 97 && code <= 122) || (code >= 65 && code <= 90);
}

/** space, tab, line feed, form feed, carriage return */
function isSpace(code: number): boolean {
  return code === 32 || (code >= 9 && code <= 13);
}

const RAW_TEXT_END: Record<string, RegExp | undefined> = { script: /<\/script/gi, style: /<\/style/gi };
const ID_OR_CLASS = /[\s"'](id|class)\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+))/gi;

function htmlFingerprint(html: string, token: string | null): BodyStructure {
  let hash = FNV_OFFSET;
  let nodes = 0;
  let i = 0;
  while ((i = html.indexOf('<', i)) !== -1) {
    if (html.charCodeAt(i + 1) === 33 /* ! */) { // comment, doctype
      const end = html.startsWith('<!--', i) ? html.indexOf('-->', i + 4) : html.indexOf('>', i);
      if (end === -1) break;
      i = end + 1;
      continue;
    }
    const closing = html.charCodeAt(i + 1) === 47; /* / */
    const start = closing ? i + 2 : i + 1;
    if (!isLetter(html.charCodeAt(start))) { i = start; continue; } // a "<" in text
    const end = html.indexOf('>', start); // a ">" in a quoted attribute value ends the tag early: still deterministic
    if (end === -1) break;
    let nameEnd = start + 1;
    while (nameEnd < end && !isSpace(html.charCodeAt(nameEnd)) && html.charCodeAt(nameEnd) !== 47) nameEnd++;
    i = end + 1;
    hash = step(mixLowerCase(closing ? step(hash, 47) : hash, html, start, nameEnd), 10);
    if (closing) continue;
    nodes++;
    if (end > nameEnd + 3) hash = mixIdAndClasses(hash, html.slice(nameEnd, end), token);
    const rawEnd = nameEnd - start === 6 || nameEnd - start === 5 ? RAW_TEXT_END[html.slice(start, nameEnd).toLowerCase()] : undefined;
    if (rawEnd) { // skip the script's or style's text, up to its end tag
      rawEnd.lastIndex = i;
      const m = rawEnd.exec(html);
      if (!m) break;
      i = m.index;
    }
  }
  return { kind: 'html', nodes, hash: hex(hash) };
}

/** Hashes `#id` and `.classes` of a start tag's attributes, the other attributes not. */
function mixIdAndClasses(hash: number, attributes: string, token: string | null): number {
  ID_OR_CLASS.lastIndex = 0;
  for (let m; (m = ID_OR_CLASS.exec(attributes));) {
    hash = step(hash, m[1]!.length === 2 ? 35 /* # */ : 46 /* . */);
    hash = mixValue(hash, m[2] ?? m[3] ?? m[4] ?? '', token);
  }
  return hash;
}

function jsonFingerprint(json: string, token: string | null): BodyStructure {
  let hash = FNV_OFFSET;
  let nodes = 0;
  for (let i = 0; i < json.length; i++) {
    const c = json.charCodeAt(i);
    if (c === 34 /* " */) {
      const end = stringEnd(json, i);
      let next = end + 1;
      while (isSpace(json.charCodeAt(next))) next++;
      if (json.charCodeAt(next) === 58 /* : */) hash = step(mixValue(step(hash, 34), json.slice(i + 1, end), token), 58); // a key
      else { nodes++; hash = step(hash, 115 /* s */); }
      i = end;
    } else if (c === 123 || c === 91 /* { [ */) { nodes++; hash = step(hash, c); }
    else if (c === 125 || c === 93 /* } ] */) hash = step(hash, c);
    else if (c !== 44 && c !== 58 && !isSpace(c)) { // a number, true, false or null: its type, then skip to its end
      nodes++;
      hash = step(hash, c === 116 || c === 102 ? 98 /* b */ : c === 110 ? 122 /* z */ : 110 /* n */);
      while (i + 1 < json.length && !isDelimiter(json.charCodeAt(i + 1))) i++;
    }
  }
  return { kind: 'json', nodes, hash: hex(hash) };
}

/** What ends a number or a literal: , : ] } or a space. */
function isDelimiter(code: number): boolean {
  return code === 44 || code === 58 || code === 93 || code === 125 || isSpace(code);
}

/** The index of the quote that closes the string opened at `start` (the last index when it is not closed). */
function stringEnd(json: string, start: number): number {
  let end = json.indexOf('"', start + 1);
  while (end !== -1) {
    let backslashes = 0;
    while (json.charCodeAt(end - 1 - backslashes) === 92) backslashes++;
    if (backslashes % 2 === 0) return end;
    end = json.indexOf('"', end + 1);
  }
  return json.length - 1;
}
