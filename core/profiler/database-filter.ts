import type { Profile, ProfileSummary, SearchQuery } from './profile.js';
import type { ProfileStore } from './storage/profile-storage.js';

/** What `profiles list` asks of a profile's Database panel. */
export interface DatabaseFilter {
  /** at least this many queries */
  minQueries?: number;
  /** only profiles with a repeated-query (N+1) warning */
  repeated?: boolean;
}

const PAGE = 200;

export function hasDatabaseFilter(filter: DatabaseFilter): boolean {
  return filter.minQueries !== undefined || filter.repeated === true;
}

/** Whether the profile's queries pass the filter. */
export function matchesDatabaseFilter(profile: Profile, filter: DatabaseFilter): boolean {
  const db = profile.collectors?.db;
  const queries = db?.queries?.length ?? 0;
  if (filter.minQueries !== undefined && queries < filter.minQueries) return false;
  return !filter.repeated || (db?.repeated?.length ?? 0) > 0;
}

/**
 * The newest `query.limit` profiles matching `query` whose queries pass `filter`, and how many match
 * in all. The stores index the list fields only, so the profiles the other filters find are read, a
 * page at a time, newest first, through the store's own search and read: the same on every store.
 */
export async function searchByQueries(
  storage: ProfileStore,
  query: SearchQuery,
  filter: DatabaseFilter,
): Promise<{ rows: ProfileSummary[]; total: number }> {
  const rows: ProfileSummary[] = [];
  const skip = query.offset ?? 0;
  let total = 0;
  for (let offset = 0; ; offset += PAGE) {
    const page = await storage.search({ ...query, offset, limit: PAGE });
    for (const summary of page) {
      const profile = await storage.read(summary.token);
      if (profile === null || !matchesDatabaseFilter(profile, filter)) continue;
      if (total >= skip && rows.length < query.limit) rows.push(summary);
      total++;
    }
    if (page.length < PAGE) return { rows, total };
  }
}
