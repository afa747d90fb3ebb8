const SLAB_BYTES = 256 * 1024;

/**
 * Encodes strings as UTF-8 into views of one large buffer, taking a fresh one
 * when the current is full. Buffer.from() takes its bytes from an 8 KB pool,
 * so a 3 KB profile costs a new ArrayBuffer every other call; here it is one
 * every eighty or so. A slab stays alive while any view of it does.
 */
export class Utf8Slab {
  #slab = Buffer.allocUnsafeSlow(SLAB_BYTES);
  #used = 0;

  encode(text: string): Buffer {
    const most = text.length * 3;
    if (this.#slab.length - this.#used < most) {
      this.#slab = Buffer.allocUnsafeSlow(Math.max(SLAB_BYTES, most));
      this.#used = 0;
    }
    const start = this.#used;
    this.#used += this.#slab.write(text, start, 'utf8');
    return this.#slab.subarray(start, this.#used);
  }
}
