import type { ProfileSummary, SearchQuery } from './profile.js';
import type { ProfileStorage } from './storage/profile-storage.js';

/** A request that started this long before the newest one seen may still be stored after it. */
const LOOKBACK_MS = 30_000;
const BATCH = 100;

/**
 * The profiles stored since the feed began, each once, oldest first: it polls the store's search
 * (so it follows any store, written by this process or another) for profiles newer than a moving
 * mark, and remembers the tokens it gave out within the look-back window.
 */
export class ProfileFeed {
  readonly #seen = new Map<string, number>();
  #since: number;
  #started = false;

  constructor(private readonly storage: ProfileStorage, private readonly filter: Omit<SearchQuery, 'limit' | 'since'>, now = Date.now()) {
    this.#since = now - LOOKBACK_MS;
  }

  /** The profiles new since the last call; the first call only marks what is already there. */
  async next(): Promise<ProfileSummary[]> {
    const rows = await this.storage.search({ ...this.filter, since: this.#since, limit: BATCH });
    const fresh = rows.filter((row) => !this.#seen.has(row.token)).reverse();
    for (const row of fresh) this.#seen.set(row.token, row.time);
    const newest = Math.max(this.#since + LOOKBACK_MS, ...rows.map((row) => row.time));
    this.#since = newest - LOOKBACK_MS;
    for (const [token, time] of this.#seen) if (time < this.#since) this.#seen.delete(token);
    if (!this.#started) {
      this.#started = true;
      return [];
    }
    return fresh;
  }
}
