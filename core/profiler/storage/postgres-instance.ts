/** room for an instance name (host name:port) in UTF-8; a longer one is cut */
const CAPACITY = 512;

/**
 * The name of the instance whose profiles a PostgreSQL store writes, in memory every thread of
 * the process shares: `app serve` learns its port after the profiler worker has opened the writer.
 */
export class SharedInstanceName {
  readonly buffer: SharedArrayBuffer;
  readonly #length: Int32Array;
  readonly #bytes: Uint8Array;
  #cached = '';
  #cachedVersion = -1;

  constructor(buffer = new SharedArrayBuffer(8 + CAPACITY)) {
    this.buffer = buffer;
    this.#length = new Int32Array(buffer, 0, 2);
    this.#bytes = new Uint8Array(buffer, 8);
  }

  set(name: string): void {
    const encoded = new TextEncoder().encode(name);
    let length = Math.min(encoded.length, CAPACITY);
    // never cut inside a character
    while (length < encoded.length && length > 0 && (encoded[length] & 0xc0) === 0x80) length--;
    this.#bytes.set(encoded.subarray(0, length));
    Atomics.store(this.#length, 0, length);
    Atomics.add(this.#length, 1, 1);
  }

  get(): string {
    const version = Atomics.load(this.#length, 1);
    if (version !== this.#cachedVersion) {
      this.#cached = new TextDecoder().decode(this.#bytes.slice(0, Atomics.load(this.#length, 0)));
      this.#cachedVersion = version;
    }
    return this.#cached;
  }
}
