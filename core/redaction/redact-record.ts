import { REDACTED } from './redacted.js';
import { redactText } from './redact-text.js';
import { looksSecret } from './secret-names.js';
import type { SecretValues } from './secret-values.js';
import { BoundedCache } from '../bounded-cache.js';

export type RedactKind = 'header' | 'query' | 'cookie' | 'form';

const ALWAYS_SECRET_HEADERS = new Set(['authorization', 'proxy-authorization', 'cookie', 'set-cookie']);
/** The profile's own token and link: "token" in their names, but they name the profile, they open nothing. */
const NEVER_SECRET_HEADERS = new Set(['x-debug-token', 'x-debug-token-link']);

/** Authorization schemes (IANA's registry and common ones): the only first words of the value kept. */
const AUTH_SCHEMES = new Map(
  [
    'Basic',
    'Bearer',
    'Digest',
    'DPoP',
    'GNAP',
    'HOBA',
    'Mutual',
    'Negotiate',
    'NTLM',
    'OAuth',
    'PrivateToken',
    'SCRAM-SHA-1',
    'SCRAM-SHA-256',
    'vapid',
    'AWS4-HMAC-SHA256',
    'Token',
    'ApiKey',
    'Kerberos',
    'MAC',
    'HMAC',
  ].map((scheme) => [scheme.toLowerCase(), scheme]),
);

/** A header value that is not secret by name: secret URLs and credential shapes in it are still replaced. */
const redactHeaderValue = (value: string): string => redactText(value);

/** A profile's token (core/profiler/token.ts): six lowercase hex digits. */
const PROFILE_TOKEN = /^[0-9a-f]{6}$/;

/**
 * X-Debug-Token, or X-Debug-Token-Link: a profile's token at the end (the whole of the first) names the
 * profile and opens nothing, and is kept as it is; what comes before it is judged as any header value.
 * Judged whole, every link would be a text of its own to the memo of redactText, one per request.
 */
function redactProfileHeader(value: string): string {
  const cut = value.lastIndexOf('/') + 1;
  if (value.length - cut !== 6 || !PROFILE_TOKEN.test(value.slice(cut))) return redactHeaderValue(value);
  return cut === 0 ? value : redactHeaderValue(value.slice(0, cut)) + value.slice(cut);
}

function isProfileHeader(name: string): boolean {
  return (name.length === 13 || name.length === 18) && NEVER_SECRET_HEADERS.has(name.toLowerCase());
}

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
    secret = judgedHeaders.set(
      name,
      ALWAYS_SECRET_HEADERS.has(lower) || (!NEVER_SECRET_HEADERS.has(lower) && looksSecret(name)),
    );
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
export function redactRecord(
  kind: RedactKind,
  record: Record<string, string | string[]>,
  redacted: string[],
  secrets?: SecretValues,
): Record<string, string | string[]> {
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
        const clean =
          kind === 'header' && isProfileHeader(name) ? redactProfileHeader(value) : redactHeaderValue(value);
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
