/** The profiler's address space: every path of its pages is made here (its routes, links, headers, replay, the CLI). */
export const PROFILER_PATH = '/_profiler';
export const PROFILER_SEARCH_PATH = `${PROFILER_PATH}/search`;
/** The profiler's first page: the newest ten profiles. */
export const PROFILER_HOME_URL = `${PROFILER_SEARCH_PATH}?limit=10`;
export const PROFILER_LATEST_PATH = `${PROFILER_PATH}/latest`;
export const PROFILER_LIVE_PATH = `${PROFILER_PATH}/live`;
export const PROFILER_LIVE_SCRIPT_PATH = `${PROFILER_PATH}/live-search.js`;
export const INSTANCE_PROOF_PATH = `${PROFILER_PATH}/instance-proof`;
export const PROFILER_MCP_PATH = `${PROFILER_PATH}/mcp`;

/** `/_profiler/<token>` (the token percent-encoded), unescaped for HTML; the route's pattern for `{token}`. */
export function profileUrl(token: string): string {
  return `${PROFILER_PATH}/${encodeURIComponent(token)}`;
}

/** `/_profiler/<token>?panel=<name>&type=request`, unescaped. */
export function panelUrl(token: string, panel: string): string {
  return `${profileUrl(token)}?panel=${panel}&type=request`;
}

/** Whether a request path is the profiler's: /_profiler itself or below it (not /_profilerx). */
export function isProfilerPath(path: string): boolean {
  return path.startsWith(PROFILER_PATH) && (path.length === PROFILER_PATH.length || path[PROFILER_PATH.length] === '/');
}
