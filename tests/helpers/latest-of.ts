import type { ProfileSummary } from '../../core/profiler/profile.js';
import type { ProfileStore } from '../../core/profiler/storage/profile-storage.js';

/** The last profile to arrive in the store, as `latest` means it (find-profile.ts). */
export async function latestOf(store: ProfileStore): Promise<ProfileSummary | null> {
  return (await store.search({ limit: 1, order: 'arrival' }))[0] ?? null;
}
