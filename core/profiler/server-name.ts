/** room for a server's name (host name:port) in UTF-8; a longer one is cut */
const CAPACITY = 512;

/**
 * The name of the server writing profiles (host name:port), in memory every thread of the process
 * shares: `app serve` hands it to its store when opening it, and learns its port (and sets it here)
 * after the profiler worker has opened its writer. A store several servers share records it with
 * each profile; one a single server owns ignores it.
 */
export class ServerName {
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
