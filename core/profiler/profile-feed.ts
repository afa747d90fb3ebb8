import type { ProfileSummary, SearchQuery } from './profile.js';
import type { ProfileStorage } from './storage/profile-storage.js';

/** A request that started this long before the newest one seen may still be stored after it. */
const LOOKBACK_MS = 30_000;
const BATCH = 100;

/**
 * The profiles stored since the feed began, each once, oldest first: it polls the store's search
 * (so it follows any store, written by this process or another) for profiles newer than a moving
 * mark, and remembers the tokens it gave out within the look-back window. A poll reads page after
 * page, newest first, while a full page held a profile not given yet: a burst, or another
 * server's batch of older requests, may be more than one page.
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
    let newest = this.#since + LOOKBACK_MS;
    const fresh: ProfileSummary[] = [];
    const given = new Set<string>();
    for (let offset = 0; ; offset += BATCH) {
      const page = await this.storage.search({ ...this.filter, since: this.#since, limit: BATCH, offset });
      const unseen = page.filter((row) => !this.#seen.has(row.token) && !given.has(row.token));
      for (const row of page) newest = Math.max(newest, row.time);
      for (const row of unseen) given.add(row.token);
      fresh.push(...unseen);
      if (page.length < BATCH || unseen.length === 0) break;
    }
    fresh.reverse();
    for (const row of fresh) this.#seen.set(row.token, row.time);
    this.#since = newest - LOOKBACK_MS;
    for (const [token, time] of this.#seen) if (time < this.#since) this.#seen.delete(token);
    if (!this.#started) {
      this.#started = true;
      return [];
    }
    return fresh;
  }
}
