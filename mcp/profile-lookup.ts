import { findProfile } from '../core/profiler/find-profile.js';
import type { Profile } from '../core/profiler/profile.js';
import type { ProfileStore } from '../core/profiler/storage/profile-storage.js';

/** A token, or `latest`, read from the store, its "not found" naming the tools to look with (find-profile.ts). */
export function lookUpProfile(storage: ProfileStore, given: string, includeProfiler = false): Promise<Profile> {
  return findProfile(storage, given, includeProfiler, {
    empty: ': send a request to the app first',
    form: ', or "latest"',
    unknown: ' (list_profiles shows the stored ones)',
  });
}
