import { AppError } from '../core/errors.js';
import type { Profile } from '../core/profiler/profile.js';
import type { ProfileStorage } from '../core/profiler/storage/profile-storage.js';
import { isValidToken } from '../core/profiler/token.js';

/** A token, or `latest` (the profiler's own requests left out unless asked), read from the store; a clear error otherwise. */
export async function lookUpProfile(storage: ProfileStorage, given: string, includeProfiler = false): Promise<Profile> {
  const token = given.trim();
  if (token === 'latest') {
    const [latest] = await storage.search({ limit: 1, hideProfiler: !includeProfiler });
    const profile = latest && await storage.read(latest.token);
    if (!profile) throw new AppError('APP_ERR_PROFILER_TOKEN_NOT_FOUND', 'The store holds no profile yet: send a request to the app first.');
    return profile;
  }
  if (!isValidToken(token)) throw new AppError('APP_ERR_PROFILER_TOKEN_NOT_FOUND', `Token "${token}" not found: a token is 6 lowercase hexadecimal characters, or "latest".`);
  const profile = await storage.read(token);
  if (!profile) throw new AppError('APP_ERR_PROFILER_TOKEN_NOT_FOUND', `Token "${token}" not found (list_profiles shows the stored ones).`);
  return profile;
}
