/**
 * A Map emptied when full, for what repeats from one request to the next (a content type, a stack,
 * a header name): the hot entries come back at once, and keeping them exactly (an LRU) would cost
 * every lookup more than an occasional recomputation does.
 */
export class BoundedCache<K, V> {
  readonly #entries = new Map<K, V>();

  constructor(readonly maxEntries: number) {}

  get size(): number {
    return this.#entries.size;
  }

  get(key: K): V | undefined {
    return this.#entries.get(key);
  }

  has(key: K): boolean {
    return this.#entries.has(key);
  }

  /** Keeps `value` under `key`, the cache emptied first when it holds maxEntries already; returns `value`. */
  set(key: K, value: V): V {
    if (this.#entries.size >= this.maxEntries && !this.#entries.has(key)) this.#entries.clear();
    this.#entries.set(key, value);
    return value;
  }

  clear(): void {
    this.#entries.clear();
  }
}
