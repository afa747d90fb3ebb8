import { serialisedJson } from '../../debug/request-recording.js';

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const INITIAL_BYTES = 1 << 16;

/** The UTF-8 bytes of the JSON texts made once (serialiseOnce), by value: spliced in as they are. */
const knownBytes = new WeakMap<object, Buffer>();

/**
 * Writes JSON text as UTF-8 straight into one growable buffer: names, numbers and punctuation byte
 * by byte, a text made once copied in as bytes. No string of the whole text is ever put together
 * (joining a profile's few hundred pieces and encoding the result cost as much as making them).
 * Each method writes exactly what JSON.stringify writes for its value.
 */
export class JsonSink {
  bytes = Buffer.allocUnsafeSlow(INITIAL_BYTES);
  at = 0;

  /** Text that needs no escaping: punctuation and names written in the code ('{"duration":'). */
  ascii(text: string): void {
    this.#room(text.length);
    const { bytes } = this;
    let at = this.at;
    for (let i = 0; i < text.length; i++) bytes[at++] = text.charCodeAt(i);
    this.at = at;
  }

  /** A string as JSON.stringify quotes it: printable ASCII byte by byte, anything else left to JSON.stringify. */
  string(text: string): void {
    this.#room(text.length + 2);
    const { bytes } = this;
    let at = this.at;
    bytes[at++] = QUOTE;
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c < 0x20 || c > 0x7e || c === QUOTE || c === BACKSLASH) {
        this.json(JSON.stringify(text));
        return;
      }
      bytes[at++] = c;
    }
    bytes[at++] = QUOTE;
    this.at = at;
  }

  nullOrString(text: string | null): void {
    if (text === null) this.ascii('null');
    else this.string(text);
  }

  /**
   * A number as JSON.stringify writes it (NaN and the infinities as null). A profile's times are
   * ms to the nanosecond (spanMs: a whole number of millionths): such a number, under 10^9 ms, has
   * at most 15 significant digits, and its shortest form (what JSON writes) is then its decimal
   * digits, written here from whole numbers, without the general conversion of a double.
   */
  number(value: number): void {
    let millionths = Math.round(value * 1e6);
    if (millionths / 1e6 !== value || millionths >= 1e15 || millionths <= -1e15) {
      this.ascii(Number.isFinite(value) ? String(value) : 'null');
      return;
    }
    this.#room(24);
    const { bytes } = this;
    if (millionths < 0) {
      bytes[this.at++] = 0x2d;
      millionths = -millionths;
    }
    const whole = Math.floor(millionths / 1e6);
    let fraction = millionths - whole * 1e6;
    this.#digits(whole);
    if (fraction === 0) return;
    const at = this.at + 1;
    bytes[this.at] = 0x2e;
    let last = at + 5;
    while (fraction % 10 === 0) {
      fraction /= 10;
      last--;
    }
    for (let i = last; i >= at; i--) {
      bytes[i] = 0x30 + (fraction % 10);
      fraction = Math.floor(fraction / 10);
    }
    this.at = last + 1;
  }

  /** A whole number from 0 to 10^9 - 1. */
  #digits(value: number): void {
    let length = 1;
    for (let rest = value; rest >= 10; rest = Math.floor(rest / 10)) length++;
    const { bytes } = this;
    let rest = value;
    for (let i = this.at + length - 1; i >= this.at; i--) {
      bytes[i] = 0x30 + (rest % 10);
      rest = Math.floor(rest / 10);
    }
    this.at += length;
  }

  /** A JSON text (JSON.stringify's), encoded as UTF-8. */
  json(text: string): void {
    this.#room(text.length * 3);
    this.at += this.bytes.write(text, this.at);
  }

  /** The JSON text serialiseOnce() made of `value`, its bytes made once too; false if there is none. */
  known(value: unknown): boolean {
    if (typeof value !== 'object' || value === null) return false;
    let bytes = knownBytes.get(value);
    if (bytes === undefined) {
      const text = serialisedJson(value);
      if (text === undefined) return false;
      knownBytes.set(value, bytes = Buffer.from(text));
    }
    this.#room(bytes.length);
    this.bytes.set(bytes, this.at);
    this.at += bytes.length;
    return true;
  }

  /** The text written from `start` on. */
  text(start = 0): string {
    return this.bytes.toString('utf8', start, this.at);
  }

  #room(more: number): void {
    if (this.at + more <= this.bytes.length) return;
    const grown = Buffer.allocUnsafeSlow(Math.max(this.bytes.length * 2, this.at + more));
    this.bytes.copy(grown, 0, 0, this.at);
    this.bytes = grown;
  }
}
