/** the smallest buffer made: a batch of small records fits */
const MIN_BYTES = 256 * 1024;
/**
 * All the buffers made, at most: enough for the batches of a full store queue of debug error pages
 * in flight at once (when the worker is behind); beyond, batches travel in copies of their own.
 */
const MAX_TOTAL_BYTES = 64 * 1024 * 1024;

/**
 * The shared buffers batches of records travel in, lent to one batch until the profiler worker
 * has answered for it, then reused. Posting a SharedArrayBuffer copies nothing, and a reused
 * one is memory already touched: a batch copied by postMessage costs fresh memory twice (the
 * copy here and the one the worker reads). A buffer is never let go (one made per batch instead
 * outgrew the heap: a worker frees its references late), so what is made is bounded by
 * MAX_TOTAL_BYTES and made only while more batches are in flight than ever before.
 */
export class BatchBuffers {
  readonly #free: SharedArrayBuffer[] = [];
  #madeBytes = 0;

  /** A buffer of at least `length` bytes, or null when none may be lent now. */
  lend(length: number): SharedArrayBuffer | null {
    let best = -1;
    for (let i = 0; i < this.#free.length; i++) {
      const size = this.#free[i].byteLength;
      if (size >= length && (best === -1 || size < this.#free[best].byteLength)) best = i;
    }
    if (best !== -1) {
      const buffer = this.#free[best];
      this.#free[best] = this.#free[this.#free.length - 1];
      this.#free.pop();
      return buffer;
    }
    const size = sizeFor(length);
    if (this.#madeBytes + size > MAX_TOTAL_BYTES) return null;
    this.#madeBytes += size;
    return new SharedArrayBuffer(size);
  }

  /** The batch lent `buffer` is answered for: the buffer may carry another. */
  giveBack(buffer: SharedArrayBuffer): void {
    this.#free.push(buffer);
  }
}

function sizeFor(length: number): number {
  let size = MIN_BYTES;
  while (size < length) size *= 2;
  return size;
}
