import type { Profile } from './profile.js';

/** What a secret value becomes in a stored profile. */
export const REDACTED = '[REDACTED]';

export type RedactKind = 'header' | 'query' | 'cookie' | 'form';

const ALWAYS_SECRET_HEADERS = new Set(['authorization', 'proxy-authorization', 'cookie', 'set-cookie']);
/** The profile's own token and link: "token" in their names, but they name the profile, they open nothing. */
const NEVER_SECRET_HEADERS = new Set(['x-debug-token', 'x-debug-token-link']);

/** Found anywhere in the name once lower-cased with separators removed: "newPassword", "x-api-key", "PHPSESSID". */
const SECRET_FRAGMENTS = [
  'password', 'passwd', 'passphrase', 'secret', 'token', 'apikey', 'accesskey', 'privatekey', 'credential',
  'signature', 'sessid', 'sessionid', 'csrf', 'xsrf', 'authorization', 'authentication', 'bearer', 'cookie',
];

/** Only as a whole word part, so that "author", "compass" and "design" stay readable. */
const SECRET_WORDS = new Set(['pwd', 'pass', 'auth', 'session', 'sid', 'sig', 'jwt', 'otp', 'pin', 'saml']);

/** Only as the whole name: `?key=` carries API keys (Google's), `sort_key` does not. */
const SECRET_NAMES = new Set(['key']);

/** "X-Auth_Token", "apiKey", "client.secret" -> ["x", "auth", "token"], ["api", "key"], ["client", "secret"]. */
function words(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
}

/** Names repeat on every request (the same headers, the same form fields): each is judged once. */
const judged = new Map<string, boolean>();
const MAX_JUDGED = 4096;

/** Whether a header, query, cookie or form field of this name holds a secret. */
export function looksSecret(name: string): boolean {
  let secret = judged.get(name);
  if (secret === undefined) {
    if (judged.size >= MAX_JUDGED) judged.clear();
    judged.set(name, secret = judgeName(name));
  }
  return secret;
}

function judgeName(name: string): boolean {
  const parts = words(name);
  const compact = parts.join('');
  return SECRET_NAMES.has(compact) || parts.some((part) => SECRET_WORDS.has(part)) || SECRET_FRAGMENTS.some((fragment) => compact.includes(fragment));
}

function isSecret(kind: RedactKind, name: string): boolean {
  if (kind === 'cookie') return true;
  if (kind === 'header' && ALWAYS_SECRET_HEADERS.has(name.toLowerCase())) return true;
  if (kind === 'header' && NEVER_SECRET_HEADERS.has(name.toLowerCase())) return false;
  return looksSecret(name);
}

/** Keeps the scheme of an Authorization value ("Bearer [REDACTED]"): it is not secret and tells what was sent. */
function redactValue(kind: RedactKind, name: string, value: string): string {
  if (kind === 'header' && /authorization$/i.test(name)) {
    const scheme = /^([A-Za-z][A-Za-z0-9._~+/-]*) +\S/.exec(value);
    if (scheme) return `${scheme[1]} ${REDACTED}`;
  }
  return REDACTED;
}

/** A copy of `record` with secret values replaced; each replaced name is pushed to `redacted` as "<kind> <name>". */
export function redactRecord(kind: RedactKind, record: Record<string, string | string[]>, redacted: string[]): Record<string, string | string[]> {
  const copy: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(record)) {
    if (!isSecret(kind, name)) {
      copy[name] = value;
      continue;
    }
    copy[name] = Array.isArray(value) ? value.map((v) => redactValue(kind, name, v)) : redactValue(kind, name, value);
    redacted.push(`${kind} ${name}`);
  }
  return copy;
}

/** A name=value pair of a query string, wherever it appears: in a URL, or inside the strings of a JSON text. */
const QUERY_PAIR = /([?&;])([^=&#;"\\\s]+)=([^&#;"\\\s]*)/g;

/** Whether the URL's query has a parameter that looks secret, with a value. */
export function hasSecretQuery(url: string): boolean {
  if (!url.includes('?')) return false;
  for (const [, , name, value] of url.matchAll(QUERY_PAIR)) if (value !== '' && value !== REDACTED && looksSecret(decodeFormName(name))) return true;
  return false;
}

/**
 * Whether a URL the profile holds from outside the app carries a secret query
 * value: its own URL, the Referer it came with (`/reset?token=`), or the
 * Location it answered (an OAuth callback with `access_token=`).
 */
export function hasSecretUrl(profile: Profile): boolean {
  if (hasSecretQuery(profile.url)) return true;
  const request = profile.collectors?.request;
  if (hasSecretQuery(String(request?.headers?.referer ?? ''))) return true;
  for (const [name, value] of Object.entries(request?.response?.headers ?? {})) {
    if (name.toLowerCase() === 'location' && hasSecretQuery(String(value))) return true;
  }
  return false;
}

/**
 * `text` with the values of secret-looking query parameters replaced, in
 * every query string it holds: a URL, or a whole JSON document (the request
 * URL is copied into log contexts and Location headers). Never touches a quote
 * or a backslash, so JSON stays JSON.
 */
export function redactQueryStrings(text: string): string {
  if (text.indexOf('=') === -1) return text;
  return text.replace(QUERY_PAIR, (whole, separator: string, name: string, value: string) =>
    (value === '' || value === REDACTED || !looksSecret(decodeFormName(name)) ? whole : `${separator}${name}=${REDACTED}`));
}

/**
 * The body text with secret fields replaced: form-urlencoded and multipart
 * fields by name ("form <name>"), JSON keys at any depth ("body <path>").
 * Other content types are returned as they are.
 */
export function redactBody(contentType: string | null, text: string, redacted: string[]): string {
  const type = (contentType ?? '').split(';')[0].trim().toLowerCase();
  if (type === 'application/x-www-form-urlencoded') return redactUrlEncoded(text, redacted);
  if (type === 'multipart/form-data') return redactMultipart(contentType ?? '', text, redacted);
  if (type === 'application/json' || type.endsWith('+json')) return redactJson(text, redacted);
  return text;
}

function decodeFormName(raw: string): string {
  try {
    return decodeURIComponent(raw.replace(/\+/g, ' '));
  } catch {
    return raw;
  }
}

function redactUrlEncoded(text: string, redacted: string[]): string {
  return text.split('&').map((pair) => {
    const eq = pair.indexOf('=');
    const name = decodeFormName(eq === -1 ? pair : pair.slice(0, eq));
    if (eq === -1 || !looksSecret(name)) return pair;
    redacted.push(`form ${name}`);
    return `${pair.slice(0, eq)}=${REDACTED}`;
  }).join('&');
}

function redactMultipart(contentType: string, text: string, redacted: string[]): string {
  const boundary = /boundary="?([^";]+)"?/i.exec(contentType)?.[1] ?? /^--([^\r\n]+)/.exec(text)?.[1];
  if (!boundary) return text;
  return text.split(`--${boundary}`).map((part) => {
    const split = /\r?\n\r?\n/.exec(part);
    if (!split) return part;
    const head = part.slice(0, split.index);
    const name = /content-disposition:[^\r\n]*\bname="([^"]*)"/i.exec(head)?.[1];
    if (name === undefined || !looksSecret(name)) return part;
    redacted.push(`form ${name}`);
    const body = part.slice(split.index + split[0].length);
    const trailing = /\r?\n$/.exec(body)?.[0] ?? '';
    return `${head}${split[0]}${REDACTED}${trailing}`;
  }).join(`--${boundary}`);
}

function redactJson(text: string, redacted: string[]): string {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return redactJsonText(text, redacted);
  }
  const before = redacted.length;
  const clean = redactJsonValue(value, '', redacted);
  return redacted.length === before ? text : JSON.stringify(clean);
}

function redactJsonValue(value: unknown, path: string, redacted: string[]): unknown {
  if (Array.isArray(value)) return value.map((item, i) => redactJsonValue(item, `${path}[${i}]`, redacted));
  if (value === null || typeof value !== 'object') return value;
  const copy: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    const at = path ? `${path}.${key}` : key;
    if (looksSecret(key)) {
      copy[key] = REDACTED;
      redacted.push(`body ${at}`);
    } else {
      copy[key] = redactJsonValue(item, at, redacted);
    }
  }
  return copy;
}

/** For JSON that does not parse (cut at the body cap): `"key": "value"` and `"key": 123` pairs, the value possibly unterminated. */
function redactJsonText(text: string, redacted: string[]): string {
  return text.replace(/"((?:[^"\\]|\\.)*)"(\s*:\s*)("(?:[^"\\]|\\.)*(?:"|$)|-?[0-9][0-9.eE+-]*|true|false)/g, (whole, key: string, colon: string) => {
    if (!looksSecret(key)) return whole;
    redacted.push(`body ${key}`);
    return `"${key}"${colon}"${REDACTED}"`;
  });
}
