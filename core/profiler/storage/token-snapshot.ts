import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomicSync } from './store-files.js';
import { TOKEN_BITMAP_BYTES, TokenBits } from './token-bits.js';

/**
 * The tokens of a store's segments as its index files held them at a moment, in one file: opening a
 * store of a million profiles reads its 3 MB instead of every index file (107 MB, 160 to 230 ms before
 * a server could answer), then only what the index files gained since. A cache: a segment it does
 * not name, or whose index file is another (a rewritten one) or shorter, is read from its index file.
 *
 * A line of JSON, `{"version":1,"segments":[[base, inode, bytes, count], ...]}`, then each segment's
 * tokens in that order, 3 bytes each (the token's number, high byte first).
 */
export const TOKEN_SNAPSHOT_FILE = 'tokens.bin';
const VERSION = 2;
/** how many of an index file's first bytes tell it from another file of the same name and inode */
export const HEAD_BYTES = 32;

/** A segment's tokens as its index file's first `bytes` (whole lines) held them. */
export interface SegmentTokens {
  base: string;
  /** the index file's inode, as a decimal string */
  ino: string;
  /** its modification time in ns, as a decimal string */
  mtime: string;
  /** its first HEAD_BYTES bytes (fewer in a shorter file), base64 */
  head: string;
  bytes: number;
  /** 3 bytes a token */
  tokens: Uint8Array;
}

export interface TokenSnapshot {
  /** by segment name */
  segments: Map<string, SegmentTokens>;
  /** every segment's tokens, TokenBits.toBytes() */
  all: Uint8Array | null;
}

/** The snapshot in `dir`, or an empty one when there is none or it cannot be read whole. */
export function readTokenSnapshot(dir: string): TokenSnapshot {
  const none: TokenSnapshot = { segments: new Map(), all: null };
  let bytes: Buffer;
  try {
    bytes = readFileSync(join(dir, TOKEN_SNAPSHOT_FILE));
  } catch {
    return none;
  }
  const end = bytes.indexOf(0x0a);
  if (end < 0) return none;
  try {
    const header = JSON.parse(bytes.toString('utf8', 0, end)) as { version?: unknown; segments?: unknown };
    if (header.version !== VERSION || !Array.isArray(header.segments)) return none;
    const all = bytes.subarray(end + 1, end + 1 + TOKEN_BITMAP_BYTES);
    if (all.length !== TOKEN_BITMAP_BYTES) return none;
    const segments = new Map<string, SegmentTokens>();
    let at = end + 1 + TOKEN_BITMAP_BYTES;
    for (const entry of header.segments as unknown[]) {
      if (!Array.isArray(entry) || entry.length !== 6) return none;
      const [base, ino, mtime, head, covered, count] = entry as unknown[];
      if (![base, ino, mtime, head].every((field) => typeof field === 'string')) return none;
      if (!isCount(covered) || !isCount(count) || at + count * 3 > bytes.length) return none;
      segments.set(base as string, {
        base: base as string,
        ino: ino as string,
        mtime: mtime as string,
        head: head as string,
        bytes: covered,
        tokens: bytes.subarray(at, at + count * 3),
      });
      at += count * 3;
    }
    return at === bytes.length ? { segments, all } : none;
  } catch {
    return none;
  }
}

/** Replaces the snapshot in `dir` (readers see the old one or the new one). */
export function writeTokenSnapshot(dir: string, segments: readonly SegmentTokens[]): void {
  const header = {
    version: VERSION,
    segments: segments.map((s) => [s.base, s.ino, s.mtime, s.head, s.bytes, s.tokens.length / 3]),
  };
  const all = new TokenBits();
  for (const { tokens } of segments)
    for (let i = 0; i + 2 < tokens.length; i += 3) all.add((tokens[i] << 16) | (tokens[i + 1] << 8) | tokens[i + 2]);
  writeFileAtomicSync(
    dir,
    TOKEN_SNAPSHOT_FILE,
    Buffer.concat([Buffer.from(`${JSON.stringify(header)}\n`), all.toBytes(), ...segments.map((s) => s.tokens)]),
  );
}

const isCount = (value: unknown): value is number => Number.isSafeInteger(value) && (value as number) >= 0;
