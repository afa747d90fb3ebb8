import { decodeFormName, redactQueryStrings } from './query-strings.js';
import { redactData } from './redact-data.js';
import { redactEmbeddedPairs } from './embedded-pairs.js';
import { REDACTED } from './redacted.js';
import { looksSecret } from './secret-names.js';
import { redactShapes } from './secret-shapes.js';
import { memoizeText } from './text-memo.js';

/**
 * Free text (a log or exception message, a string of a log context) with the values of secret query
 * parameters and credentials of a known shape replaced. The terminal prints messages through it too.
 */
export const redactText: (text: string) => string = memoizeText(
  (text) => redactJsonText(text) ?? redactShapes(redactEmbeddedPairs(redactQueryStrings(redactUrlQueries(text), true))),
);

/** A URL with a query in a text (a route record's request_uri, a Referer quoted by a message) */
const URL_QUERY = /\b([a-z][a-z0-9+.-]*:\/\/[^\s"'<>?#]*\?)([^\s"'<>#]+)/gi;

/** Each query of a URL in `text` redacted as the profile's own URL is: its values percent-decoded, then judged. */
function redactUrlQueries(text: string): string {
  if (text.indexOf('://') === -1 || text.indexOf('?') === -1) return text;
  return text.replace(URL_QUERY, (whole, head: string, query: string) => {
    const clean = redactQueryString(query);
    return clean === query ? whole : head + clean;
  });
}

/**
 * A string that holds a JSON object or array ('{"password":"…"}' logged as a body), redacted as the
 * data it holds and written back as JSON; null when it holds none.
 */
function redactJsonText(text: string): string | null {
  const first = text.charCodeAt(0);
  if (first !== 0x7b && first !== 0x5b) {
    const trimmed = text.trimStart();
    if (trimmed === text || (trimmed[0] !== '{' && trimmed[0] !== '[')) return null;
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return null;
  }
  if (parsed === null || typeof parsed !== 'object') return null;
  const redacted = redactData(parsed, redactText, () => undefined);
  return redacted.changed ? JSON.stringify(redacted.value) : text;
}

/**
 * A raw query string (no "?") with the values of secret names replaced, and the values of the others
 * that hold a secret URL or credential replaced by their redacted form, percent-encoded.
 */
export function redactQueryString(queryString: string): string {
  if (queryString === '') return queryString;
  return queryString
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      if (eq === -1 || eq === pair.length - 1) return pair;
      const raw = pair.slice(eq + 1);
      if (raw === REDACTED) return pair;
      if (looksSecret(decodeFormName(pair.slice(0, eq)))) return `${pair.slice(0, eq)}=${REDACTED}`;
      const value = decodeFormName(raw);
      const clean = redactText(value);
      return clean === value ? pair : `${pair.slice(0, eq)}=${encodeURIComponent(clean)}`;
    })
    .join('&');
}
