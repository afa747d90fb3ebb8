import { AppError } from '../errors.js';
import type { Profile } from './profile.js';
import type { ProfileStore } from './storage/profile-storage.js';
import { isValidToken } from './token.js';

/** What a reader adds to its "not found" messages: where to look next (the CLI's words, MCP's tool names). */
export interface NotFoundHints {
  /** after "The store holds no profile yet" */
  empty?: string;
  /** after 'Token "x" not found' */
  unknown?: string;
  /** after the expected form of a token */
  form?: string;
}

/**
 * `latest` (the last profile to reach the store, the profiler's own requests left out unless `includeProfiler`) or a
 * token, blanks around it ignored (a token pasted from a page or a log line often brings a space or a
 * line break along). A malformed token is an APP_ERR_PROFILER_BAD_TOKEN, an unknown one an
 * APP_ERR_PROFILER_TOKEN_NOT_FOUND, each saying so (the CLI exits 1 for either, as for any token it cannot show).
 */
export async function findProfile(storage: ProfileStore, given: string, includeProfiler = false, hints: NotFoundHints = {}): Promise<Profile> {
  const token = given.trim();
  if (token === 'latest') {
    const [latest] = await storage.search({ limit: 1, order: 'arrival', hideProfiler: !includeProfiler });
    const profile = latest && await storage.read(latest.token);
    if (!profile) throw new AppError('APP_ERR_PROFILER_TOKEN_NOT_FOUND', `The store holds no profile yet${hints.empty ?? ''}.`);
    return profile;
  }
  if (!isValidToken(token)) throw new AppError('APP_ERR_PROFILER_BAD_TOKEN', `Token "${token}" not found: a token is 6 lowercase hexadecimal characters${hints.form ?? ''}.`);
  const profile = await storage.read(token);
  if (!profile) throw new AppError('APP_ERR_PROFILER_TOKEN_NOT_FOUND', `Token "${token}" not found${hints.unknown ?? ''}.`);
  return profile;
}
