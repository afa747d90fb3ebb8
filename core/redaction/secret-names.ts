import { BoundedCache } from '../bounded-cache.js';

/** Found anywhere in the name once lower-cased with separators removed: "newPassword", "x-api-key", "PHPSESSID". */
const SECRET_FRAGMENTS = [
  'password',
  'passwd',
  'passphrase',
  'passcode',
  'secret',
  'token',
  'apikey',
  'accesskey',
  'privatekey',
  'credential',
  'signature',
  'sessid',
  'sessionid',
  'csrf',
  'xsrf',
  'authorization',
  'authentication',
  'bearer',
  'cookie',
];

/** Only as a whole word part, so that "author", "compass", "design" and "refreshed" stay readable. */
const SECRET_WORDS = new Set([
  'pwd',
  'pw',
  'pass',
  'auth',
  'session',
  'sid',
  'sig',
  'jwt',
  'otp',
  'pin',
  'saml',
  'creds',
  'refresh',
]);

/** Only as the whole name: `?key=` carries API keys (Google's), `?code=` an OAuth authorization code; `zip_code` does not. */
const SECRET_NAMES = new Set(['key', 'code']);

/**
 * A last word "key" names a key ("Ocp-Apim-Subscription-Key", "x-goog-api-key", "hmac_key") unless the word
 * before it says it is a data key: "sort_key", "primary-key", "idempotency-key".
 */
const DATA_KEY_QUALIFIERS = new Set([
  'sort',
  'order',
  'primary',
  'foreign',
  'partition',
  'range',
  'hash',
  'row',
  'cache',
  'idempotency',
  'dedup',
  'dedupe',
  'group',
  'lookup',
  'map',
  'object',
  'index',
  'unique',
  'composite',
  'natural',
  'surrogate',
  'routing',
  'translation',
  'message',
  'label',
  'i18n',
  'hot',
  'shortcut',
  'file',
  'bucket',
  'dict',
  'react',
  'list',
  'item',
  'cursor',
  'page',
]);

/** One-word names ending in "key" that are no key: everything else ending in "key" ("apikey", "hmackey") is one. */
const INNOCENT_KEY_WORDS = new Set([
  'monkey',
  'donkey',
  'turkey',
  'hockey',
  'jockey',
  'whiskey',
  'lackey',
  'hotkey',
  'turnkey',
  'sortkey',
]);

/** "X-Auth_Token", "apiKey", "client.secret" -> ["x", "auth", "token"], ["api", "key"], ["client", "secret"]. */
export function words(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
}

/** Names repeat on every request (the same headers, the same form fields): each is judged once. */
const MAX_JUDGED = 4096;
const judged = new BoundedCache<string, boolean>(MAX_JUDGED);

/** Whether a header, query, cookie, form field, JSON key, log context key or route parameter of this name holds a secret. */
export function looksSecret(name: string): boolean {
  let secret = judged.get(name);
  if (secret === undefined) {
    secret = judged.set(name, judgeName(name));
  }
  return secret;
}

function judgeName(name: string): boolean {
  const parts = words(name);
  if (parts.length === 0) return false;
  const compact = parts.join('');
  if (
    SECRET_NAMES.has(compact) ||
    parts.some((part) => SECRET_WORDS.has(part)) ||
    SECRET_FRAGMENTS.some((fragment) => compact.includes(fragment))
  )
    return true;
  const last = parts[parts.length - 1];
  if (last === 'key') return parts.length > 1 && !DATA_KEY_QUALIFIERS.has(parts[parts.length - 2]);
  return last.length > 3 && last.endsWith('key') && !INNOCENT_KEY_WORDS.has(last);
}
