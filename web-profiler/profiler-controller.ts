import type { ControllerContext } from '../core/kernel/controller.js';
import { AppError, HttpError, NotFoundHttpError } from '../core/errors.js';
import { firstValue } from '../core/http/request.js';
import { Response } from '../core/http/response.js';
import { renderProfilePage } from './views/profile-page.js';
import type { EditorLinks } from '../render/editor-link.js';
import { renderSearchPage } from './views/search-page.js';
import { renderExplainPage } from './views/explain-page.js';
import { LIVE_SEARCH_SCRIPT } from './assets/live-search-script.js';
import { LiveStreams } from './live-stream.js';
import type { Profile, SearchQuery } from '../core/profiler/profile.js';
import { defaultPanel, findPanel } from '../panels/registry.js';
import { isValidToken } from '../core/profiler/token.js';
import { resolveProfile } from '../core/profiler/find-profile.js';
import { instanceKey, instanceProof, isNonce } from '../core/profiler/instance-proof.js';
import { parseUtcTime } from '../core/profiler/utc-time.js';
import type { ProfileStore } from '../core/profiler/storage/profile-storage.js';
import { countMatches } from '../core/profiler/match-count.js';
import { PROFILER_HOME_URL, PROFILER_PATH, PROFILER_SEARCH_PATH } from '../core/profiler/profiler-urls.js';

export const SEARCH_LIMITS = [10, 50, 100] as const;

/** A profile database that cannot be reached is a 503 the browser may try again after this many seconds. */
const RETRY_AFTER_SECONDS = '5';

/** The /_profiler pages: home, search results, one profile's panel, its JSON. */
export class ProfilerController {
  constructor(
    private readonly storage: ProfileStore,
    private readonly editor: EditorLinks | null = null,
    private readonly live = new LiveStreams(),
  ) {}

  readonly homeAction = ({ request }: ControllerContext): Response =>
    Response.redirect(request.locationOf(PROFILER_HOME_URL), 302);

  readonly searchAction = async ({ request }: ControllerContext): Promise<Response> => {
    const notes: string[] = [];
    const query = parseSearchQuery(request.query, notes);
    const [rows, total] = await fromStore(Promise.all([this.storage.search(query), countMatches(this.storage, query)]));
    // A value that was not applied makes the answer a 400, the page saying why: scripts see it too.
    const status = notes.some((note) => note.includes(NOT_APPLIED)) ? 400 : 200;
    return Response.html(renderSearchPage(rows, query, total, notes, Date.now()), status);
  };

  readonly panelAction = async ({ request, params }: ControllerContext): Promise<Response> => {
    const moved = movedProfilerPath(params.token);
    if (moved !== null)
      return Response.redirect(
        request.locationOf(`${moved}${request.queryString ? `?${request.queryString}` : ''}`),
        301,
      );
    const profile = await this.load(params.token);
    const requested = firstValue(request.query.panel);
    const panel = requested === undefined || requested === '' ? defaultPanel(profile) : findPanel(profile, requested);
    if (panel === null)
      throw new NotFoundHttpError(`Panel "${requested}" is not available for token "${params.token}".`);
    return Response.html(
      renderProfilePage(profile, { panel: panel.name, query: request.query, editor: this.editor, now: Date.now() }),
    );
  };

  /** Server-Sent Events: each profile stored from now on that fits the search filter (live-stream.ts). */
  readonly liveAction = async ({ request }: ControllerContext): Promise<Response> => {
    // A stream follows what is stored from now on: the page's limit, start and offset are not its filters.
    const { limit: _limit, since: _since, start: _start, offset: _offset, ...given } = request.query;
    const notes: string[] = [];
    const { limit: _default, ...filter } = parseSearchQuery(given, notes);
    const stream = await this.live.open(this.storage, filter, notes);
    const response = Response.stream(stream, 'text/event-stream; charset=UTF-8');
    response.setHeader('X-Accel-Buffering', 'no');
    return response;
  };

  /** The search page's script, from this origin (the pages' CSP allows `script-src 'self'`, nothing inline). */
  readonly liveScriptAction = (): Response =>
    new Response(LIVE_SEARCH_SCRIPT, 200, { 'Content-Type': 'text/javascript; charset=UTF-8' });

  /** Proves to a replay that this is the server that recorded a profile on this port (instance-proof.ts). */
  readonly instanceProofAction = ({ request }: ControllerContext): Response => {
    const nonce = firstValue(request.query.nonce);
    if (!isNonce(nonce)) throw new HttpError(400, 'Expected ?nonce= and 32 lowercase hex digits.');
    const key = instanceKey(true);
    const port = request.serverAddress?.port;
    if (key === null || port === undefined)
      throw new HttpError(503, 'This server has no instance key: its state folder cannot be written.');
    return Response.json({ proof: instanceProof(key, nonce, port) }, 200, { 'Cache-Control': 'no-store' });
  };

  /**
   * EXPLAIN of one recorded query through the app's live pool, in this process. A POST from the profiler's
   * own pages only (its Sec-Fetch-Site, or without one its Origin, says so): another site's form must not make this server
   * query its database.
   */
  readonly explainAction = async ({ request }: ControllerContext): Promise<Response> => {
    // A browser says where a request comes from in Sec-Fetch-Site; the profiler's no-referrer policy makes its Origin "null"
    const site = request.header('sec-fetch-site');
    const sameOrigin = site !== undefined ? site === 'same-origin' : request.header('origin') === request.baseUrl;
    if (!sameOrigin) throw new HttpError(403, "EXPLAIN is accepted only from the profiler's own page (same origin).");
    const form = await request.form();
    const token = firstValue(form.token) ?? '';
    const asked = firstValue(form.query) ?? '';
    const profile = await this.load(token);
    const index = /^\d{1,6}$/.test(asked) ? Number(asked) : -1;
    const query = profile.collectors.db?.queries?.[index];
    if (query === undefined) throw new NotFoundHttpError(`Profile "${token}" has no query #${asked}.`);
    const { explainQuery } = await import('../core/profiler/explain-query.js');
    const result = await explainQuery(query);
    return Response.html(renderExplainPage(profile.token, index, query, result), result.ok ? 200 : result.status);
  };

  readonly jsonAction = async ({ params }: ControllerContext): Promise<Response> =>
    Response.json(await this.load(params.token), 200, { 'Content-Type': 'application/json' });

  /** `latest` (the newest profile of a request that was not the profiler's own) or a valid token; anything else is a 404 before any file is touched. */
  private async load(token: string): Promise<Profile> {
    const found = await fromStore(
      resolveProfile(this.storage, token, false),
      `The profile "${token}" cannot be read: `,
    );
    if (found === 'none yet') throw new NotFoundHttpError('No profile has been recorded yet.');
    if (typeof found === 'string') throw new NotFoundHttpError(`Token "${token}" not found.`);
    return found;
  }
}

/**
 * What the store answers; its errors say what was asked (`what`, before their message), and a
 * profile database that cannot be reached is a 503 with Retry-After, not a 500: the profiler is
 * fine, its database is away for now.
 */
async function fromStore<T>(answer: Promise<T>, what = ''): Promise<T> {
  try {
    return await answer;
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    const message = `${what}${error.message}`;
    if (error.code === 'APP_ERR_PROFILER_STORE_UNAVAILABLE')
      throw new HttpError(503, message, { 'Retry-After': RETRY_AFTER_SECONDS }, { cause: error });
    // A row that fails the stored model or its size budget is input we refuse, not a server fault.
    if (error.code === 'APP_ERR_PROFILER_STORE_CORRUPT')
      throw new HttpError(422, `This profile is damaged or too large. ${message}`, {}, { cause: error });
    throw what === '' ? error : new AppError(error.code, message, { cause: error });
  }
}

/**
 * Where a profiler address the `_profiler` route took for a token really points: a trailing slash
 * (`<token>/`, `search/`) is dropped, and Symfony's search addresses (`empty/search/results`,
 * `<token>/search/results`) are the search page. Null when `token` is none of these.
 */
function movedProfilerPath(token: string): string | null {
  if (/^(?:empty|[0-9a-f]{6})\/search\/results\/?$/.test(token)) return PROFILER_SEARCH_PATH;
  if (!token.endsWith('/')) return null;
  const trimmed = token.replace(/\/+$/, '');
  return trimmed === 'search' || trimmed === 'latest' || isValidToken(trimmed) ? `${PROFILER_PATH}/${trimmed}` : null;
}

/**
 * Search page parameters; blanks are ignored, the limit is one of 10/50/100 (default 10), the offset a
 * whole number (default 0); the profiler's own requests are left out unless `profiler=1`. A value that
 * cannot be used (a limit of 5, a status "abc", a time that is none) is left out and said in `notes`,
 * and so is a time range that nothing can match.
 */
export function parseSearchQuery(raw: Record<string, string | string[]>, notes: string[] = []): SearchQuery {
  const value = (name: string) => {
    const v = firstValue(raw[name])?.trim();
    return v ? v : undefined;
  };
  const given = value('limit');
  const limit = Number(given);
  const query: SearchQuery = { limit: (SEARCH_LIMITS as readonly number[]).includes(limit) ? limit : 10 };
  if (given !== undefined && query.limit !== limit)
    notes.push(`limit "${given}"${NOT_APPLIED} ${SEARCH_LIMITS.join(', ')} are offered.`);
  for (const key of ['ip', 'method', 'status', 'url', 'token'] as const) {
    const v = value(key);
    if (v === undefined) continue;
    if (key === 'status' && !STATUS_FILTER.test(v))
      notes.push(`status "${v}"${NOT_APPLIED} give an exact status (404) or a class (4xx).`);
    else query[key] = key === 'method' ? v.toUpperCase() : key === 'status' ? v.toLowerCase() : v;
  }
  const since = parseTime(value('since') ?? value('start'), 'since', notes);
  const until = parseTime(value('until') ?? value('end'), 'until', notes);
  if (since !== undefined) query.since = since;
  if (until !== undefined) query.until = until;
  if (since !== undefined && until !== undefined && since > until)
    notes.push('"since" is later than "until": no profile can match.');
  if (value('profiler') !== '1') query.hideProfiler = true;
  const givenOffset = value('offset');
  const offset = Number(givenOffset);
  if (Number.isSafeInteger(offset) && offset > 0) query.offset = offset;
  else if (givenOffset !== undefined && offset !== 0)
    notes.push(`offset "${givenOffset}"${NOT_APPLIED} give a whole number of rows to skip.`);
  return query;
}

const STATUS_FILTER = /^[1-5]([0-9]{2}|xx)$/i;
const NOT_APPLIED = ' was not applied:';

function parseTime(value: string | undefined, name: string, notes: string[]): number | undefined {
  if (value === undefined) return undefined;
  const ms = parseUtcTime(value);
  if (Number.isNaN(ms))
    notes.push(`${name} "${value}"${NOT_APPLIED} give a date and time (2026-11-22T14:00, UTC unless a zone is given).`);
  return Number.isNaN(ms) ? undefined : ms;
}
