/** 24 bits: a token is 6 lowercase hexadecimal digits (core/profiler/token.ts). */
const TOKENS = 1 << 24;
/** the bytes of a whole set, toBytes() */
export const TOKEN_BITMAP_BYTES = TOKENS >>> 3;
/** while no more tokens than this are in the set, clear() unsets their bits one by one instead of the whole 2 MB */
const FEW = 4_096;

/** The token's number, or -1 when it is not 6 lowercase hexadecimal digits. */
export function tokenNumber(token: string): number {
  if (token.length !== 6) return -1;
  let value = 0;
  for (let i = 0; i < 6; i++) {
    const c = token.charCodeAt(i);
    const digit = c >= 48 && c <= 57 ? c - 48 : c >= 97 && c <= 102 ? c - 87 : -1;
    if (digit < 0) return -1;
    value = (value << 4) | digit;
  }
  return value;
}

/**
 * An exact set of valid tokens, one bit each (2 MB, made at the first add): asking for a token
 * costs the same at 100,000 tokens as at ten, with no hash of the string and no miss in a large
 * table. `add` and `has` take valid tokens only (tokenNumber is not -1); callers keep the others
 * elsewhere.
 */
export class TokenBits {
  #words: Int32Array | null = null;
  #size = 0;
  /** the numbers added while the set held FEW or fewer; dropped past that */
  #few: number[] | null = [];

  get size(): number {
    return this.#size;
  }

  has(n: number): boolean {
    return this.#words !== null && (this.#words[n >>> 5] & (1 << (n & 31))) !== 0;
  }

  add(n: number): void {
    const words = (this.#words ??= new Int32Array(TOKENS >>> 5));
    const bit = 1 << (n & 31);
    if ((words[n >>> 5] & bit) !== 0) return;
    words[n >>> 5] |= bit;
    this.#size++;
    if (this.#few !== null) {
      if (this.#few.length < FEW) this.#few.push(n);
      else this.#few = null;
    }
  }

  /** How many of the set lie in [from, to). */
  countRange(from: number, to: number): number {
    const words = this.#words;
    if (words === null || from >= to) return 0;
    let n = 0;
    const first = from >>> 5;
    const last = (to - 1) >>> 5;
    for (let w = first; w <= last; w++) {
      let bits = words[w];
      if (w === first) bits &= -1 << (from & 31);
      if (w === last && (to & 31) !== 0) bits &= (1 << (to & 31)) - 1;
      n += popCount(bits);
    }
    return n;
  }

  /** The set as bytes (TOKEN_BITMAP_BYTES, bit n of byte n >> 3 for token number n), for a file. */
  toBytes(): Uint8Array {
    const words = (this.#words ??= new Int32Array(TOKENS >>> 5));
    return new Uint8Array(words.buffer, words.byteOffset, words.byteLength);
  }

  /** Adds every token of a set written by toBytes() (on this machine: the words' byte order). */
  addBytes(bytes: Uint8Array): void {
    if (bytes.length !== TOKEN_BITMAP_BYTES) throw new Error(`a token bitmap is ${TOKEN_BITMAP_BYTES} bytes`);
    const words = (this.#words ??= new Int32Array(TOKENS >>> 5));
    const added = new Int32Array(TOKENS >>> 5);
    new Uint8Array(added.buffer).set(bytes);
    let size = 0;
    for (let w = 0; w < words.length; w++) size += popCount((words[w] |= added[w]));
    this.#size = size;
    this.#few = null;
  }

  delete(n: number): void {
    const words = this.#words;
    const bit = 1 << (n & 31);
    if (words === null || (words[n >>> 5] & bit) === 0) return;
    words[n >>> 5] &= ~bit;
    this.#size--;
  }

  clear(): void {
    if (this.#words !== null && this.#size > 0) {
      if (this.#few !== null) for (const n of this.#few) this.#words[n >>> 5] = 0;
      else this.#words.fill(0);
    }
    this.#size = 0;
    this.#few = [];
  }
}

function popCount(bits: number): number {
  let v = bits - ((bits >>> 1) & 0x55555555);
  v = (v & 0x33333333) + ((v >>> 2) & 0x33333333);
  return (((v + (v >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
}
