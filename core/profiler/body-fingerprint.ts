import { FNV_OFFSET, hex, isSpace, mixValue, step } from './fingerprint-hash.js';
import { htmlFingerprint } from './html-fingerprint.js';
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
 * profiled request, when the profile is built (in the profiler worker); a page like one met before
 * (the debug 404 page again) is read only where it differs from it (html-fingerprint.ts).
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

function jsonFingerprint(json: string, token: string | null): BodyStructure {
  let hash = FNV_OFFSET;
  let nodes = 0;
  for (let i = 0; i < json.length; i++) {
    const c = json.charCodeAt(i);
    if (c === 34 /* " */) {
      const end = stringEnd(json, i);
      let next = end + 1;
      while (isSpace(json.charCodeAt(next))) next++;
      if (json.charCodeAt(next) === 58 /* : */)
        hash = step(mixValue(step(hash, 34), json.slice(i + 1, end), token), 58); // a key
      else {
        nodes++;
        hash = step(hash, 115 /* s */);
      }
      i = end;
    } else if (c === 123 || c === 91 /* { [ */) {
      nodes++;
      hash = step(hash, c);
    } else if (c === 125 || c === 93 /* } ] */) hash = step(hash, c);
    else if (c !== 44 && c !== 58 && !isSpace(c)) {
      // a number, true, false or null: its type, then skip to its end
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
