import type { ProfileSummary, SearchQuery } from '../profile.js';
import { compareKeys } from './time-ordered-list.js';

/**
 * One page of a search over both the profiles still queued (oldest first, none of them in `stored`)
 * and the stored ones (the query's first offset + limit matches, in its order). Queued profiles
 * are the last to arrive: first in arrival order, and left out of a search for arrivals after a
 * mark, which only stored profiles carry.
 */
export function queuedAndStored(
  queued: ProfileSummary[],
  stored: ProfileSummary[],
  query: SearchQuery,
): ProfileSummary[] {
  const offset = Math.max(0, Math.floor(query.offset ?? 0));
  const limit = Math.max(0, Math.floor(query.limit));
  if (query.order !== 'arrival')
    return [...queued, ...stored].sort((a, b) => compareKeys(b, a)).slice(offset, offset + limit);
  if (query.afterArrival !== undefined) return stored.slice(offset, offset + limit);
  return [...queued.reverse(), ...stored].slice(offset, offset + limit);
}
