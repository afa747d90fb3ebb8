import { looksSecret, words } from './secret-names.js';

/**
 * Data the app names itself (a custom panel's columns, a dump's keys and pairs) is judged by its
 * value, not by a name that merely reads like a secret: a cache panel's "Key" column holding
 * `item:1`, or `{ token: 'next-page' }`, is data. Only names of the password family say a value
 * is secret whatever it looks like (`['password', 'x']`). The request's own names (headers, form
 * fields, query) keep the name rule of secret-names.ts; credential formats are found in any value
 * by the text policy (secret-shapes.ts, secret-formats.ts).
 */

/** Names (as a word part, or inside the compacted name) that make any value secret: "password", "clientSecret", "apiKey", "pin". */
const ALWAYS_FRAGMENTS = [
  'password',
  'passwd',
  'passphrase',
  'passcode',
  'secret',
  'credential',
  'privatekey',
  'apikey',
  'accesskey',
];
const ALWAYS_WORDS = new Set(['pwd', 'pw', 'pass', 'creds', 'pin', 'otp']);

/** A credential-like value: one token of 8 or more URL-safe or base64 characters, letters and digits, mixed case or long. */
const TOKEN = /^[A-Za-z0-9._~+/=-]{8,4096}$/;

function looksLikeCredential(value: string): boolean {
  if (!TOKEN.test(value) || !/[0-9]/.test(value) || !/[A-Za-z]/.test(value)) return false;
  return value.length >= 20 || (/[a-z]/.test(value) && /[A-Z]/.test(value));
}

/** Whether a name is of the password family: any value under it is secret, whatever it looks like. */
export function alwaysSecretName(name: string): boolean {
  const parts = words(name);
  const compact = parts.join('');
  return (
    parts.some((part) => ALWAYS_WORDS.has(part)) || ALWAYS_FRAGMENTS.some((fragment) => compact.includes(fragment))
  );
}

/**
 * Whether the app's `value` under its own `name` is to be replaced whole: under a password-family
 * name always; under another secret-reading name ("Key", "token", "session") only when the value
 * reads as a credential (a string or number of one token, letters and digits: not `item:1`).
 * Objects and arrays under such a name are walked, not replaced, unless the name is of the family.
 */
export function appValueIsSecret(name: string, value: unknown): boolean {
  if (value === null || value === undefined || value === '' || !looksSecret(name)) return false;
  if (alwaysSecretName(name)) return true;
  if (typeof value !== 'string' && typeof value !== 'number' && typeof value !== 'bigint') return false;
  return looksLikeCredential(String(value));
}
