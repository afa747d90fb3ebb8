import { randomFillSync } from 'node:crypto';

const TOKEN = /^[0-9a-f]{6}$/;
const MAX_ATTEMPTS = 64;
/** 3 random bytes a token: drawn 1,024 tokens at a time, as one call for random bytes costs far more than the copy of a few */
const POOL_BYTES = 3 * 1024;
const pool = Buffer.alloc(POOL_BYTES);
let poolAt = POOL_BYTES;

/** 24 bits from the cryptographic source, each pool byte used once. */
function drawToken(): string {
  if (poolAt === POOL_BYTES) {
    randomFillSync(pool);
    poolAt = 0;
  }
  const value = (pool[poolAt] << 16) | (pool[poolAt + 1] << 8) | pool[poolAt + 2];
  poolAt += 3;
  return value.toString(16).padStart(6, '0');
}

/** Exactly 6 lowercase hex characters: checked before a token reaches any file. */
export function isValidToken(token: string): boolean {
  return TOKEN.test(token);
}

/**
 * A fresh token, one `exists` says is unused: the next `reserved` one when the store hands them
 * out, otherwise one from a cryptographic source. Throws only when MAX_ATTEMPTS draws in a row
 * were taken, which means the store holds nearly all 16.7 million tokens.
 */
export function generateToken(exists: (token: string) => boolean, reserved?: () => string | null): string {
  if (reserved) {
    for (let token = reserved(); token !== null; token = reserved()) if (!exists(token)) return token;
  }
  // No reserved token at hand: a store shared by several servers has none while its database is
  // away, and its profiles are only queued then. A draw that another server took meanwhile is
  // caught when written (the stored profile is kept, the later one dropped and counted); the
  // chance is the tokens taken meanwhile in 16.7 million, for a queue of at most a few thousand.
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    const token = drawToken();
    if (!exists(token)) return token;
  }
  throw new Error(
    `No unused profile token found in ${MAX_ATTEMPTS} attempts: the profile store is nearly full of tokens; prune it (app profiles prune --keep 10000).`,
  );
}
