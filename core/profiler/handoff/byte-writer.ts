import { keepString, knownString, MAX_SHORT_STRING } from './short-strings.js';

const encoder = new TextEncoder();
const INITIAL_BYTES = 64 * 1024;
/** strings up to this long are tried as ASCII first */
const SHORT = 64;

/**
 * Writes numbers and strings into one growable buffer, for another thread to read with
 * ByteReader: no JSON text and no structured clone of the values is ever made. Strings go
 * in with TextEncoder.encodeInto, straight into the buffer. What is written is handed over
 * copied, by take() or takeInto(): the buffer stays, for the next batch.
 */
export class ByteWriter {
  #bytes = new Uint8Array(INITIAL_BYTES);
  #view = new DataView(this.#bytes.buffer);
  #at = 0;

  get length(): number {
    return this.#at;
  }

  /** The bytes written so far, as an ArrayBuffer of their own; the writer starts empty. */
  take(): ArrayBuffer {
    const taken = this.#bytes.buffer.slice(0, this.#at);
    this.#at = 0;
    return taken;
  }

  /** The bytes written so far, copied into `into` (at least `length` long); the writer starts empty. */
  takeInto(into: Uint8Array): void {
    into.set(this.#bytes.subarray(0, this.#at));
    this.#at = 0;
  }

  /** Forgets everything written from `length` on (a record that could not be written whole). */
  rewind(length: number): void {
    this.#at = length;
  }

  /** Leaves 4 bytes for a length known later (patch32); returns where they are. */
  reserve32(): number {
    this.#room(4);
    this.#at += 4;
    return this.#at - 4;
  }

  patch32(at: number, value: number): void {
    this.#view.setUint32(at, value, true);
  }

  uint(value: number): void {
    this.#room(5);
    let n = value >>> 0;
    while (n >= 0x80) {
      this.#bytes[this.#at++] = (n & 0x7f) | 0x80;
      n >>>= 7;
    }
    this.#bytes[this.#at++] = n;
  }

  float(value: number): void {
    this.#room(8);
    this.#view.setFloat64(this.#at, value, true);
    this.#at += 8;
  }

  bool(value: boolean): void {
    this.uint(value ? 1 : 0);
  }

  /** Zeros up to the next multiple of 8 bytes (ByteReader.skipTo8 reads past them). */
  padTo8(): void {
    this.#room(7);
    for (let pad = (8 - (this.#at & 7)) & 7; pad > 0; pad--) this.#bytes[this.#at++] = 0;
  }

  /**
   * Numbers as float64s in one copy (a trace's rows): their count, padding to a multiple of 8
   * (a Float64Array must be aligned), then the numbers as they are in memory.
   */
  floats(values: readonly number[]): void {
    const count = values.length;
    this.uint(count);
    this.#room(7 + count * 8);
    // the padding is written (zeros), never left as what an earlier record put there: it is stored with the record
    for (let pad = (8 - (this.#at & 7)) & 7; pad > 0; pad--) this.#bytes[this.#at++] = 0;
    new Float64Array(this.#bytes.buffer, this.#at, count).set(values);
    this.#at += count * 8;
  }

  string(text: string): void {
    // Each UTF-16 unit makes at most 3 bytes; the length is written after, in a fixed 4 bytes.
    this.#room(4 + text.length * 3);
    if (text.length <= SHORT && this.#ascii(text)) return;
    const { written } = encoder.encodeInto(text, this.#bytes.subarray(this.#at + 4));
    this.#view.setUint32(this.#at, written, true);
    this.#at += 4 + written;
  }

  /**
   * A short ASCII string copied by hand: most strings of a record are (header names, listener
   * names, methods), and encodeInto costs a call into C++ and a result object each.
   */
  #ascii(text: string): boolean {
    const bytes = this.#bytes;
    const start = this.#at + 4;
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c >= 0x80) return false;
      bytes[start + i] = c;
    }
    this.#view.setUint32(this.#at, text.length, true);
    this.#at = start + text.length;
    return true;
  }

  /** null travels as its own mark, so that "" stays "". */
  optionalString(text: string | null | undefined): void {
    if (text === null || text === undefined) this.uint(0);
    else {
      this.uint(1);
      this.string(text);
    }
  }

  bytes(data: Uint8Array): void {
    this.#room(4 + data.length);
    this.#view.setUint32(this.#at, data.length, true);
    this.#bytes.set(data, this.#at + 4);
    this.#at += 4 + data.length;
  }

  /** Bytes as they are, with no length before them (a reader knows where they end). */
  raw(data: Uint8Array): void {
    this.#room(data.length);
    this.#bytes.set(data, this.#at);
    this.#at += data.length;
  }

  /** A string's UTF-8 as it is, with no length before it. */
  text(text: string): void {
    this.#room(text.length * 3);
    this.#at += encoder.encodeInto(text, this.#bytes.subarray(this.#at)).written;
  }

  #room(more: number): void {
    if (this.#at + more <= this.#bytes.length) return;
    const grown = new Uint8Array(Math.max(this.#bytes.length * 2, this.#at + more));
    grown.set(this.#bytes.subarray(0, this.#at));
    this.#bytes = grown;
    this.#view = new DataView(grown.buffer);
  }
}

/** 128 to the power of a varint's byte index: what each byte's seven bits are worth. */
const SEPTET_WEIGHTS = [1, 2 ** 7, 2 ** 14, 2 ** 21, 2 ** 28];

/** Reads what a ByteWriter wrote, in the same order. */
export class ByteReader {
  readonly #bytes: Uint8Array;
  readonly #view: DataView;
  /** the same bytes, for decoding strings */
  readonly #text: Buffer;
  #at = 0;

  /** `bytes`: what a ByteWriter's take() gave (an ArrayBuffer: all of it), or a view of what takeInto() copied */
  constructor(bytes: Uint8Array | ArrayBuffer) {
    const view = bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes);
    this.#bytes = view;
    this.#text = Buffer.from(view.buffer, view.byteOffset, view.byteLength);
    this.#view = new DataView(view.buffer, view.byteOffset, view.byteLength);
  }

  get done(): boolean {
    return this.#at >= this.#bytes.length;
  }

  get offset(): number {
    return this.#at;
  }

  /** Goes on reading at `offset` (past a record that could not be read whole). */
  seek(offset: number): void {
    this.#at = offset;
  }

  uint(): number {
    let value = 0;
    for (let i = 0; ; i++) {
      const byte = this.#bytes[this.#at++];
      if (byte === undefined) throw new RangeError('a record ends in the middle of a number');
      // a multiplication by a power of 128 from a table: `2 ** shift` is a call to pow() in V8's optimized code
      value += (byte & 0x7f) * (SEPTET_WEIGHTS[i] ?? 2 ** (7 * i));
      if (byte < 0x80) return value;
    }
  }

  fixed32(): number {
    const value = this.#view.getUint32(this.#at, true);
    this.#at += 4;
    return value;
  }

  float(): number {
    const value = this.#view.getFloat64(this.#at, true);
    this.#at += 8;
    return value;
  }

  bool(): boolean {
    return this.uint() === 1;
  }

  /** Past what ByteWriter.padTo8 wrote. */
  skipTo8(): void {
    this.#at += (8 - (this.#at & 7)) & 7;
  }

  /** What floats() wrote, appended to `into`. */
  floats(into: number[]): void {
    const count = this.uint();
    this.#at += (8 - (this.#at & 7)) & 7;
    if (this.#at + count * 8 > this.#bytes.length) throw new RangeError('a record ends in the middle of its numbers');
    const values = new Float64Array(this.#bytes.buffer, this.#bytes.byteOffset + this.#at, count);
    for (let i = 0; i < count; i++) into.push(values[i]);
    this.#at += count * 8;
  }

  /** Buffer's own UTF-8 decoding: cheaper per string than TextDecoder's (no view made), and a leading U+FEFF stays. */
  string(): string {
    const length = this.#view.getUint32(this.#at, true);
    const start = this.#at + 4;
    this.#at = start + length;
    if (length <= MAX_SHORT_STRING) {
      return (
        knownString(this.#bytes, start, length) ??
        keepString(this.#bytes, start, length, this.#text.toString('utf8', start, this.#at))
      );
    }
    return this.#text.toString('utf8', start, this.#at);
  }

  optionalString(): string | null {
    return this.uint() === 0 ? null : this.string();
  }

  bytes(): Buffer {
    const length = this.#view.getUint32(this.#at, true);
    const start = this.#at + 4;
    this.#at = start + length;
    return Buffer.from(this.#bytes.buffer, this.#bytes.byteOffset + start, length);
  }
}
