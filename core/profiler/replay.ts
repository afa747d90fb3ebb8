import { AppError } from '../errors.js';
import { replayableRequest } from './export-request.js';
import type { Profile } from './profile.js';
import { diffProfiles, type ProfileDiff } from './profile-diff.js';
import { isValidToken } from './token.js';
import { verifyRecordingServer } from './verify-recording-server.js';
import { profileUrl } from './profiler-urls.js';

type RequestOptions = Parameters<import('undici').Dispatcher['request']>[0];

/**
 * undici is loaded at the first replay: every app imports this package, and most never replay.
 * The dispatcher is given origin and path apart, so the path is sent as recorded, never parsed as a URL.
 */
async function httpRequest(options: RequestOptions): Promise<import('undici').Dispatcher.ResponseData<unknown>> {
  const { getGlobalDispatcher } = await import('undici');
  return getGlobalDispatcher().request(options);
}

export interface ReplayOptions {
  /**
   * the http(s) origin to send to (no path). Default: loopback on the port the recording server
   * answered on, never the recorded Host; a profile stored before that port was recorded is sent to
   * its recorded origin only when its host is loopback, and needs `target` otherwise.
   */
  target?: string;
  /** extra or replacement headers, e.g. for values that were redacted */
  headers?: Record<string, string>;
  /** query parameters to add or replace (name -> value), e.g. for values that were redacted */
  query?: Record<string, string>;
  /** the body to send instead of the recorded one, e.g. for a body that was redacted */
  body?: string;
  /** send the stored body even when it is not the one received (values redacted in place, cut); without it and `body`, such a replay is refused */
  sendIncomplete?: boolean;
  /** ms to wait for the answer */
  timeoutMs?: number;
  /** fetch the profile the server made of the replay (default true); without it, `profile` is null */
  fetchProfile?: boolean;
}

export interface ReplayResult {
  url: string;
  /** which recorded Host was not used, and where the request went instead; null when it went to the recorded one */
  originReplaced: string | null;
  status: number;
  /** the new profile's token (X-Debug-Token), null when the server does not profile */
  token: string | null;
  /** the new profile, fetched from the server's /_profiler/<token>.json */
  profile: Profile | null;
  /** why `profile` is null when it was asked for (no token sent, or what the server answered) */
  profileProblem: string | null;
  /** recorded values that were redacted and so not sent */
  omitted: string[];
  /** the recorded body was cut at the cap, so only its beginning was sent (with sendIncomplete) */
  bodyTruncated: boolean;
  /** why the body sent is not the one recorded (see ReplayableRequest.bodyIncomplete), sent as stored with sendIncomplete; null otherwise */
  bodyIncomplete: string | null;
  bodySize: number;
}

/** Fields compared by `replay --diff`: what a replay should reproduce. */
export const REPLAY_DIFF_FIELDS: ReadonlySet<string> = new Set([
  'status',
  'route',
  'controller',
  'exception classes',
  'exception messages',
  'log errors',
  'content type',
  'page title',
  'body structure',
  'response size',
  'database queries',
  'database failures',
  'repeated queries',
]);

/**
 * Sends a recorded request again (method, path, query, headers, body) and fetches the profile
 * the server made of it, both from one origin: `options.target`, or by default loopback on the
 * port the recording server answered on (the recorded Host came from the client and is never
 * contacted). Path and query are sent as recorded, on that origin. Redacted values are never
 * sent: those headers are left out and listed in `omitted`.
 * Fails with APP_ERR_REPLAY, before sending anything, when the stored body is incomplete (redacted values
 * in it, cut at the cap) unless `body` or `sendIncomplete` is given; and when `target` is not an http(s) origin, when an old profile (no
 * server address) names a host that is not loopback and no `target` is given, and when the
 * server cannot be reached.
 */
export async function replay(profile: Profile, options: ReplayOptions = {}): Promise<ReplayResult> {
  const recorded = replayableRequest(profile, options.target);
  const incomplete = options.body === undefined ? recorded.bodyIncomplete : null;
  if (incomplete !== null && options.sendIncomplete !== true)
    throw incompleteBodyError(recorded.method, recorded.url, incomplete);
  const query = options.query ?? {};
  const target = withQuery(recorded.target, query);
  const url = recorded.origin + target;
  if (options.target === undefined)
    await verifyRecordingServer(recorded.origin, profile.token, `replay ${recorded.method} ${url}`);
  const headers: Record<string, string> = { ...recorded.headers };
  for (const [name, value] of Object.entries(options.headers ?? {})) {
    for (const key of Object.keys(headers)) if (key.toLowerCase() === name.toLowerCase()) delete headers[key];
    headers[name] = value;
  }
  const payload = options.body ?? recorded.body;
  const given = new Set(Object.keys(query).flatMap((name) => [`query ${name}`, `query ${encodeURIComponent(name)}`]));
  const omitted = recorded.omitted.filter(
    (name) => !given.has(name) && !Object.keys(headers).some((h) => h.toLowerCase() === name.toLowerCase()),
  );
  let response;
  try {
    response = await httpRequest({
      origin: recorded.origin,
      path: target,
      method: recorded.method as 'GET',
      headers,
      body: payload ?? undefined,
      headersTimeout: options.timeoutMs ?? 30_000,
      bodyTimeout: options.timeoutMs ?? 30_000,
    });
  } catch (error) {
    throw new AppError(
      'APP_ERR_REPLAY',
      `Cannot replay ${recorded.method} ${url}: ${(error as Error).message}. Is the server running? (use --target to choose another)`,
      { cause: error },
    );
  }
  const body = Buffer.from(await response.body.arrayBuffer());
  const sent = headerValue(response.headers['x-debug-token']);
  const token = sent !== null && isValidToken(sent) ? sent : null;
  let fetched: FetchedProfile = { profile: null, problem: null };
  if (options.fetchProfile !== false) {
    fetched =
      token === null
        ? { profile: null, problem: 'the server sent no X-Debug-Token: is it running in debug mode?' }
        : await fetchProfile(
            recorded.origin,
            profileJsonPath(
              headerValue(response.headers['x-debug-token-link']),
              `${recorded.prefix}${profileUrl(token)}`,
            ),
          );
  }
  const bodyTruncated = options.body === undefined && recorded.bodyTruncated && recorded.body !== null;
  return {
    url,
    originReplaced: recorded.originReplaced,
    status: response.statusCode,
    token,
    profile: fetched.profile,
    profileProblem: fetched.problem,
    omitted,
    bodyTruncated,
    bodyIncomplete: incomplete,
    bodySize: body.length,
  };
}

/** The refusal of a replay whose stored body is not the one received: it says why and how to send one anyway. */
export function incompleteBodyError(method: string, url: string, why: string): AppError {
  return new AppError(
    'APP_ERR_REPLAY',
    `Not sent: the recorded body of ${method} ${url} is incomplete (${why}). Give the body to send with --data or --data-file, or send the stored one as it is with --send-incomplete.`,
  );
}

/** The target with these query parameters set: pairs of the same name dropped, the new ones appended, the others kept byte for byte. */
function withQuery(target: string, query: Record<string, string>): string {
  const names = Object.keys(query);
  if (names.length === 0) return target;
  const q = target.indexOf('?');
  const kept =
    q === -1
      ? []
      : target
          .slice(q + 1)
          .split('&')
          .filter((pair) => {
            const raw = pair.split('=', 1)[0];
            let name = raw;
            try {
              name = decodeURIComponent(raw.replace(/\+/g, ' '));
            } catch {
              // kept as written
            }
            return pair !== '' && !names.includes(name);
          });
  const added = names.map((name) => `${encodeURIComponent(name)}=${encodeURIComponent(query[name])}`);
  return `${q === -1 ? target : target.slice(0, q)}?${[...kept, ...added].join('&')}`;
}

/** The path of the new profile's JSON: the one the server linked to (X-Debug-Token-Link), else the one under the replay's prefix. */
function profileJsonPath(link: string | null, fallback: string): string {
  if (link !== null) {
    try {
      return `${new URL(link).pathname}.json`;
    } catch {
      // not a URL: the fallback
    }
  }
  return `${fallback}.json`;
}

/**
 * Old and new profile compared on REPLAY_DIFF_FIELDS; page size is compared for non-HTML bodies only (HTML
 * pages embed tokens and times): their body structure stands for it. A replay sent to another origin
 * (another port, --target) quotes that origin in its messages (a 404's "No route found for ..."): the new
 * profile's exception messages and page title are compared with its origin written as the recorded one.
 */
export function diffReplay(before: Profile, after: Profile): ProfileDiff {
  const html = (p: Profile) => (p.collectors.request.response.contentType ?? '').startsWith('text/html');
  const fields = new Set(REPLAY_DIFF_FIELDS);
  if (html(before) || html(after)) fields.delete('response size');
  return diffProfiles(before, withOrigin(after, urlOrigin(after.url), urlOrigin(before.url)), {
    fields,
    informational: new Set(),
  });
}

/** "scheme://authority" of a recorded URL, as written (the Host the client sent is not normalised). */
function urlOrigin(url: string): string {
  const end = url.indexOf('/', url.indexOf('://') + 3);
  return end === -1 ? url : url.slice(0, end);
}

/** The profile with `from` written as `to` in its exception messages and page title. */
function withOrigin(profile: Profile, from: string, to: string): Profile {
  if (from === to || from === '') return profile;
  const swap = (text: string) => text.split(from).join(to);
  const { exception, request } = profile.collectors;
  return {
    ...profile,
    collectors: {
      ...profile.collectors,
      exception: exception && { ...exception, chain: exception.chain.map((e) => ({ ...e, message: swap(e.message) })) },
      request: {
        ...request,
        response: { ...request.response, title: request.response.title === null ? null : swap(request.response.title) },
      },
    },
  };
}

/** The profile is stored after the response is sent: a busy server may take a moment to have it. */
const PROFILE_WAIT_MS = 5_000;
const PROFILE_POLL_MS = 250;

interface FetchedProfile {
  profile: Profile | null;
  problem: string | null;
}

/**
 * The profile at `path`. The server itself waits a moment for a token still on its way; asked again
 * only while it answers that the token is not found (a store shared by several servers may lag),
 * never when the path is no profile's (a 404 of another kind, or another status).
 */
async function fetchProfile(origin: string, path: string): Promise<FetchedProfile> {
  let problem = `GET ${path} found no profile within ${PROFILE_WAIT_MS / 1000} s`;
  for (const deadline = Date.now() + PROFILE_WAIT_MS; Date.now() < deadline; ) {
    try {
      const response = await httpRequest({ origin, path, method: 'GET', headers: { accept: 'application/json' } });
      if (response.statusCode === 200) return { profile: (await response.body.json()) as Profile, problem: null };
      const text = await response.body.text();
      const detail = problemDetail(text);
      if (response.statusCode !== 404 || detail === null || !detail.startsWith('Token "')) {
        return {
          profile: null,
          problem: `GET ${path} answered ${response.statusCode}${detail === null ? '' : ` (${detail})`}`,
        };
      }
    } catch (error) {
      return { profile: null, problem: `GET ${path} failed: ${(error as Error).message}` };
    }
    problem = `GET ${path} answered 404 (Token "…" not found) for ${PROFILE_WAIT_MS / 1000} s`;
    await new Promise((resolve) => setTimeout(resolve, PROFILE_POLL_MS));
  }
  return { profile: null, problem };
}

/** The `detail` of a problem document, cut short; null when the text is none. */
function problemDetail(text: string): string | null {
  try {
    const detail = (JSON.parse(text) as { detail?: unknown }).detail;
    return typeof detail === 'string' ? (detail.length > 120 ? `${detail.slice(0, 120)}…` : detail) : null;
  } catch {
    return null;
  }
}

function headerValue(value: string | string[] | undefined): string | null {
  return (Array.isArray(value) ? value[0] : value) ?? null;
}
