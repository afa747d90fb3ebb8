import type { SearchQuery } from './profile.js';
import type { ProfileStore } from './storage/profile-storage.js';

/**
 * The most matches a search page, `app profiles list` and MCP's list have a store count one by one:
 * past it they say "10,000+". A count the store keeps (all profiles, one status or method, a time
 * range) stays exact whatever its size.
 */
export const COUNT_AT_MOST = 10_000;

/** How many profiles match a search: `n` exactly, or, when `more`, more than `n`. */
export interface MatchCount {
  n: number;
  more: boolean;
}

/** The bound a page of `query` asks the store to count to: COUNT_AT_MOST, or further when the page itself lies past it. */
export function countBound(query: SearchQuery): number {
  return Math.max(COUNT_AT_MOST, Math.max(0, Math.floor(query.offset ?? 0)) + Math.max(0, Math.floor(query.limit)));
}

/** The store's count of `query`'s matches, up to countBound(query). */
export async function countMatches(store: ProfileStore, query: SearchQuery): Promise<MatchCount> {
  const atMost = countBound(query);
  return boundedCount(await store.count(query, atMost), atMost);
}

/** What count(query, atMost) answered, read: atMost + 1 stands for "more than atMost". */
export function boundedCount(n: number, atMost: number): MatchCount {
  return n === atMost + 1 ? { n: atMost, more: true } : { n, more: false };
}

/** An exact count as a MatchCount. */
export const exactCount = (n: number): MatchCount => ({ n, more: false });

/** The count as the pages and the terminal print it: `345`, or `10,000+`. */
export function matchCountText(count: MatchCount): string {
  return count.more ? `${count.n.toLocaleString('en-US')}+` : String(count.n);
}
