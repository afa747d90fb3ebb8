const SLAB_BYTES = 1024 * 1024;
const LINE_FEED = 0x0a;

/**
 * Encodes strings as UTF-8 into views of one large shared buffer, taking a fresh one when the
 * current is full, each text followed by a line feed outside its view. Buffer.from() takes its
 * bytes from an 8 KB pool, so a 5 KB profile costs a new ArrayBuffer every other call; here it is
 * one every two hundred or so. Texts encoded one after the other into one slab are lines of one
 * range of it, which is how a block of profiles is compressed (record-codec.ts: sharedLines): the
 * compression thread reads that range in place, as the slab is a SharedArrayBuffer, and nothing is
 * copied. A slab stays alive while any view of it does.
 */
export class Utf8Slab {
  #slab = newSlab(SLAB_BYTES);
  #used = 0;

  encode(text: string): Buffer {
    // Each UTF-16 unit makes at most 3 bytes; one more for the line feed.
    const most = text.length * 3 + 1;
    if (this.#slab.length - this.#used < most) {
      this.#slab = newSlab(Math.max(SLAB_BYTES, most));
      this.#used = 0;
    }
    const start = this.#used;
    const end = start + this.#slab.write(text, start, 'utf8');
    this.#slab[end] = LINE_FEED;
    this.#used = end + 1;
    return this.#slab.subarray(start, end);
  }
}

function newSlab(bytes: number): Buffer {
  return Buffer.from(new SharedArrayBuffer(bytes));
}
