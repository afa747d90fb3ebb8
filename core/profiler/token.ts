import { randomInt } from 'node:crypto';

const TOKEN = /^[0-9a-f]{6}$/;
const TOKEN_SPACE = 0x1000000;
const MAX_ATTEMPTS = 64;

/** Exactly 6 lowercase hex characters: checked before a token reaches any file. */
export function isValidToken(token: string): boolean {
  return TOKEN.test(token);
}

/**
 * A fresh token from a cryptographic source, one `exists` says is unused.
 * Throws only when MAX_ATTEMPTS draws in a row were taken, which means the
 * store holds nearly all 16.7 million tokens.
 */
export function generateToken(exists: (token: string) => boolean): string {
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    const token = randomInt(TOKEN_SPACE).toString(16).padStart(6, '0');
    if (!exists(token)) return token;
  }
  throw new Error(`No unused profile token found in ${MAX_ATTEMPTS} attempts: the profile store is nearly full of tokens; prune it (app profiles prune --keep 10000).`);
}
