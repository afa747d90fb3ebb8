import type { ProfileSummary, SearchQuery } from './profile.js';
import type { ProfileStore } from './storage/profile-storage.js';

const BATCH = 100;
/**
 * Arrivals may become visible a little out of order (two servers' batches commit in the other
 * order than they drew their sequence numbers), so each poll looks back this many arrivals and
 * skips those it gave already.
 */
const LOOKBACK_ARRIVALS = 1_000;

/**
 * The profiles stored since the feed began, each once, oldest first. It follows the order in which
 * profiles reached the store (the arrival sequence the store assigns), never the time a profile
 * claims: a wrong clock or a row dated years ahead can neither hide new profiles nor come first.
 * It polls the store's search (so it follows any store, written by this process or another).
 */
export class ProfileFeed {
  /** arrival of each profile given out, within the look-back */
  readonly #given = new Map<string, number>();
  /** the newest arrival when the feed began: nothing up to it is given */
  #start = 0;
  /** the newest arrival at the last poll, whatever the filter */
  #top = 0;
  #started = false;

  constructor(
    private readonly storage: ProfileStore,
    private readonly filter: Omit<SearchQuery, 'limit' | 'since' | 'order' | 'afterArrival'>,
  ) {}

  /** The profiles new since the last call; the first call only marks what is already there. */
  async next(): Promise<ProfileSummary[]> {
    const [newest] = await this.storage.search({ limit: 1, order: 'arrival', afterArrival: 0 });
    const top = newest?.arrival ?? 0;
    if (!this.#started) {
      this.#start = this.#top = top;
      this.#started = true;
      return [];
    }
    const after = Math.max(this.#start, this.#top - LOOKBACK_ARRIVALS);
    this.#top = Math.max(this.#top, top);
    const fresh: ProfileSummary[] = [];
    for (let offset = 0; ; offset += BATCH) {
      const page = await this.storage.search({
        ...this.filter,
        order: 'arrival',
        afterArrival: after,
        limit: BATCH,
        offset,
      });
      const unseen = page.filter((row) => !this.#given.has(row.token));
      fresh.push(...unseen);
      if (page.length < BATCH || unseen.length === 0) break;
    }
    fresh.reverse();
    for (const row of fresh) this.#given.set(row.token, row.arrival ?? 0);
    const forgotten = Math.max(this.#start, this.#top - LOOKBACK_ARRIVALS);
    for (const [token, arrival] of this.#given) if (arrival <= forgotten) this.#given.delete(token);
    return fresh.map(({ arrival: _arrival, ...summary }) => summary);
  }
}
