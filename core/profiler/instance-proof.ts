import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { chmodSync, linkSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

/**
 * How a server proves it is an appkernel server of this machine's user, listening on the port a
 * profile was recorded on, before a replay or an export sends anything there. A stored profile is
 * input (a team's database may hold a planted row), so its recorded port is checked, not trusted:
 * the server answers a fresh nonce with an HMAC under a key kept in the user's own state folder,
 * never in a store. A listener that does not hold the key (another program on that port, a relay to
 * a real server, which answers for its own port) cannot answer. The key outlives restarts, so
 * yesterday's profile replays to today's `app serve` on the same port without flags.
 */

/** The profiler's address that answers a nonce with its proof (`?nonce=<32 hex>`). */

const NONCE = /^[0-9a-f]{32}$/;

/** `$APPKERNEL_STATE_DIR`, else `$XDG_STATE_HOME/appkernel`, else `~/.local/state/appkernel`. */
export function stateDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.APPKERNEL_STATE_DIR) return env.APPKERNEL_STATE_DIR;
  return join(env.XDG_STATE_HOME || join(homedir(), '.local', 'state'), 'appkernel');
}

let cachedKey: { dir: string; key: Buffer } | null = null;

/**
 * This user's instance key (32 random bytes in `<state dir>/instance-key`, mode 0600), created at
 * the first call that may create it. Null when it does not exist and `create` is false, or when the
 * folder cannot be written: then no proof can be given or checked.
 */
export function instanceKey(create: boolean): Buffer | null {
  const dir = stateDir();
  if (cachedKey?.dir === dir) return cachedKey.key;
  const file = join(dir, 'instance-key');
  let key = readKey(file);
  if (key === null && create) {
    // Written whole under a name of its own, then linked into place: a process starting at the same
    // moment finds either no key or the whole key, never a file still empty.
    const draft = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`;
    try {
      mkdirSync(dir, { recursive: true, mode: 0o700 });
      const fresh = randomBytes(32);
      writeFileSync(draft, `${fresh.toString('hex')}\n`, { mode: 0o600, flag: 'wx' });
      chmodSync(draft, 0o600);
      linkSync(draft, file);
      key = fresh;
    } catch {
      // another process linked its key first (read it), or the folder cannot be written (no proof)
      key = readKey(file);
    } finally {
      rmSync(draft, { force: true });
    }
  }
  if (key !== null) cachedKey = { dir, key };
  return key;
}

function readKey(file: string): Buffer | null {
  try {
    const key = Buffer.from(readFileSync(file, 'utf8').trim(), 'hex');
    return key.length === 32 ? key : null;
  } catch {
    return null;
  }
}

export function newNonce(): string {
  return randomBytes(16).toString('hex');
}

export function isNonce(text: string | undefined): text is string {
  return text !== undefined && NONCE.test(text);
}

/** The proof for `nonce` of a server listening on `port`. */
export function instanceProof(key: Buffer, nonce: string, port: number): string {
  return createHmac('sha256', key).update(`appkernel instance proof\n${nonce}\n${port}`).digest('hex');
}

export function isProofOf(key: Buffer, nonce: string, port: number, given: unknown): boolean {
  if (typeof given !== 'string' || !/^[0-9a-f]{64}$/.test(given)) return false;
  return timingSafeEqual(Buffer.from(instanceProof(key, nonce, port), 'hex'), Buffer.from(given, 'hex'));
}
