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

/** Why `latest` or a token names no profile: the store holds none yet, the token is malformed, or no profile has it. */
export type MissingProfile = 'none yet' | 'malformed' | 'unknown';

/**
 * The one place `latest` and a token are told apart: `latest` is the last profile to reach the store
 * (the profiler's own requests left out unless `includeProfiler`); a token is checked before the store
 * is asked. Callers word what is missing: the CLI and MCP (findProfile), the web profiler.
 */
export async function resolveProfile(
  storage: ProfileStore,
  token: string,
  includeProfiler: boolean,
): Promise<Profile | MissingProfile> {
  if (token === 'latest') {
    const [latest] = await storage.search({ limit: 1, order: 'arrival', hideProfiler: !includeProfiler });
    return (latest && (await storage.read(latest.token))) || 'none yet';
  }
  if (!isValidToken(token)) return 'malformed';
  return (await storage.read(token)) ?? 'unknown';
}

/**
 * `latest` or a token (resolveProfile), blanks around it ignored (a token pasted from a page or a
 * log line often brings a space or a line break along). A malformed token is an
 * APP_ERR_PROFILER_BAD_TOKEN, an unknown one an APP_ERR_PROFILER_TOKEN_NOT_FOUND, each saying so (the
 * CLI exits 1 for either, as for any token it cannot show).
 */
export async function findProfile(
  storage: ProfileStore,
  given: string,
  includeProfiler = false,
  hints: NotFoundHints = {},
): Promise<Profile> {
  const token = given.trim();
  const found = await resolveProfile(storage, token, includeProfiler);
  if (found === 'none yet')
    throw new AppError('APP_ERR_PROFILER_TOKEN_NOT_FOUND', `The store holds no profile yet${hints.empty ?? ''}.`);
  if (found === 'malformed')
    throw new AppError(
      'APP_ERR_PROFILER_BAD_TOKEN',
      `Token "${token}" not found: a token is 6 lowercase hexadecimal characters${hints.form ?? ''}.`,
    );
  if (found === 'unknown')
    throw new AppError('APP_ERR_PROFILER_TOKEN_NOT_FOUND', `Token "${token}" not found${hints.unknown ?? ''}.`);
  return found;
}
