import { decodeFormName, redactQueryStrings } from './query-strings.js';
import { redactData } from './redact-data.js';
import { redactEmbeddedPairs } from './embedded-pairs.js';
import { REDACTED } from './redacted.js';
import { looksSecret } from './secret-names.js';
import { redactShapes } from './secret-shapes.js';
import type { SecretValues } from './secret-values.js';
import { memoizeText } from './text-memo.js';
import { BoundedCache } from '../bounded-cache.js';

/**
 * The one redaction policy: every value a profile stores goes through here before storage. Names
 * (secret-names.ts), shapes (secret-shapes.ts), query strings (query-strings.ts), bodies
 * (redact-body.ts), nested data (redact-data.ts) and values met again elsewhere (secret-values.ts).
 */
export { REDACTED } from './redacted.js';
export { looksSecret } from './secret-names.js';
export { hasSecretQuery, redactQueryStrings } from './query-strings.js';
export { redactShapes } from './secret-shapes.js';
export { redactBody, unredactableBody } from './redact-body.js';
export { SecretValues } from './secret-values.js';

export type RedactKind = 'header' | 'query' | 'cookie' | 'form';

const ALWAYS_SECRET_HEADERS = new Set(['authorization', 'proxy-authorization', 'cookie', 'set-cookie']);
/** The profile's own token and link: "token" in their names, but they name the profile, they open nothing. */
const NEVER_SECRET_HEADERS = new Set(['x-debug-token', 'x-debug-token-link']);

/** Authorization schemes (IANA's registry and common ones): the only first words of the value kept. */
const AUTH_SCHEMES = new Map(['Basic', 'Bearer', 'Digest', 'DPoP', 'GNAP', 'HOBA', 'Mutual', 'Negotiate', 'NTLM', 'OAuth',
  'PrivateToken', 'SCRAM-SHA-1', 'SCRAM-SHA-256', 'vapid', 'AWS4-HMAC-SHA256', 'Token', 'ApiKey', 'Kerberos', 'MAC', 'HMAC']
  .map((scheme) => [scheme.toLowerCase(), scheme]));

/**
 * Free text (a log or exception message, a string of a log context) with the values of secret query
 * parameters and credentials of a known shape replaced. The terminal prints messages through it too.
 */
export const redactText: (text: string) => string = memoizeText((text) =>
  redactJsonText(text) ?? redactShapes(redactEmbeddedPairs(redactQueryStrings(redactUrlQueries(text), true))));

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

/** A header value that is not secret by name: secret URLs and credential shapes in it are still replaced. */
const redactHeaderValue = (value: string): string => redactText(value);

function isSecret(kind: RedactKind, name: string): boolean {
  if (kind === 'cookie') return true;
  if (kind === 'header') return isSecretHeader(name);
  return looksSecret(name);
}

/** Header names repeat on every request: each is judged once. Bounded. */
const MAX_JUDGED_HEADERS = 1024;
const judgedHeaders = new BoundedCache<string, boolean>(MAX_JUDGED_HEADERS);

function isSecretHeader(name: string): boolean {
  let secret = judgedHeaders.get(name);
  if (secret === undefined) {
    const lower = name.toLowerCase();
    secret = judgedHeaders.set(name, ALWAYS_SECRET_HEADERS.has(lower) || (!NEVER_SECRET_HEADERS.has(lower) && looksSecret(name)));
  }
  return secret;
}

/** "Bearer [REDACTED]" for an Authorization value of a known scheme: the scheme tells what was sent, nothing more is kept. */
function redactSecretValue(kind: RedactKind, name: string, value: string): string {
  if (kind === 'header' && /authorization$/i.test(name)) {
    const scheme = /^([A-Za-z][A-Za-z0-9._~+/-]*) +\S/.exec(value)?.[1];
    const known = scheme === undefined ? undefined : AUTH_SCHEMES.get(scheme.toLowerCase());
    if (known !== undefined) return `${scheme} ${REDACTED}`;
  }
  return REDACTED;
}

/**
 * A copy of `record` (null prototype: "__proto__" and "constructor" stay names) with secret values
 * replaced: by name, and by shape or secret URL in the other values. Each replaced name is pushed to
 * `redacted` as "<kind> <name>"; each secret value given whole to `secrets`, to be followed elsewhere.
 */
export function redactRecord(kind: RedactKind, record: Record<string, string | string[]>, redacted: string[], secrets?: SecretValues): Record<string, string | string[]> {
  const copy: Record<string, string | string[]> = Object.create(null);
  for (const name of Object.keys(record)) {
    const value = record[name];
    if (typeof value === 'string') {
      // One value (most): as below, without the arrays.
      if (isSecret(kind, name)) {
        copy[name] = redactSecretValue(kind, name, value);
        secrets?.addCredential(value);
        redacted.push(`${kind} ${name}`);
      } else {
        const clean = redactHeaderValue(value);
        copy[name] = clean;
        if (clean !== value) redacted.push(`${kind} ${name}`);
      }
      continue;
    }
    const values = Array.isArray(value) ? value : [value];
    const secret = isSecret(kind, name);
    const clean = secret ? values.map((v) => redactSecretValue(kind, name, v)) : values.map(redactHeaderValue);
    if (secret) for (const v of values) secrets?.addCredential(v);
    copy[name] = Array.isArray(value) ? clean : clean[0];
    if (secret || clean.some((v, i) => v !== values[i])) redacted.push(`${kind} ${name}`);
  }
  return copy;
}

/**
 * A raw query string (no "?") with the values of secret names replaced, and the values of the others
 * that hold a secret URL or credential replaced by their redacted form, percent-encoded.
 */
export function redactQueryString(queryString: string): string {
  if (queryString === '') return queryString;
  return queryString.split('&').map((pair) => {
    const eq = pair.indexOf('=');
    if (eq === -1 || eq === pair.length - 1) return pair;
    const raw = pair.slice(eq + 1);
    if (raw === REDACTED) return pair;
    if (looksSecret(decodeFormName(pair.slice(0, eq)))) return `${pair.slice(0, eq)}=${REDACTED}`;
    const value = decodeFormName(raw);
    const clean = redactHeaderValue(value);
    return clean === value ? pair : `${pair.slice(0, eq)}=${encodeURIComponent(clean)}`;
  }).join('&');
}

/** The route and its parameters, as the router matched them (the parameter values decoded). */
export interface MatchedRoute {
  route: string | null;
  params: Readonly<Record<string, string>>;
}

/** Whether a route parameter of this name holds a secret: the profiler's own `{token}` names a profile, it opens nothing. */
export function isSecretRouteParam(route: string | null, name: string): boolean {
  return !route?.startsWith('_profiler') && looksSecret(name);
}

/** The route parameters with the values of the secret ones replaced ("route <name>" in `redacted`). */
export function redactRouteParams(matched: MatchedRoute, redacted: string[], secrets?: SecretValues): Record<string, string> {
  const copy: Record<string, string> = Object.create(null);
  for (const name of Object.keys(matched.params)) {
    const value = matched.params[name];
    if (value === '' || !isSecretRouteParam(matched.route, name)) {
      copy[name] = value;
      continue;
    }
    copy[name] = REDACTED;
    redacted.push(`route ${name}`);
    secrets?.add(value);
  }
  return copy;
}

/**
 * The raw path with every segment that holds the value of a secret route parameter ("/reset/{token}")
 * replaced: "/reset/[REDACTED]", and credentials of a known shape replaced.
 */
export function redactPath(path: string, matched: MatchedRoute): string {
  let values: string[] | null = null;
  for (const name of Object.keys(matched.params)) {
    const value = matched.params[name];
    if (value !== '' && isSecretRouteParam(matched.route, name)) (values ??= []).push(value);
  }
  const shaped = redactShapes(path);
  if (values === null) return shaped;
  const pieces = new Set(values.flatMap((value) => value.split('/')).filter(Boolean));
  return shaped.split('/').map((segment) => {
    const decoded = decodePathSegment(segment);
    return pieces.has(decoded) || values.some((value) => decoded.includes(value)) ? REDACTED : segment;
  }).join('/');
}

function decodePathSegment(segment: string): string {
  try {
    return segment.indexOf('%') === -1 ? segment : decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
