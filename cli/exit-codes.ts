import type { ErrorCode } from '../core/errors.js';

/** The one place error codes become exit codes (README "Exit codes"). */
export const EXIT = { OK: 0, FAILURE: 1, USAGE: 2 } as const;

const USAGE_CODES: ReadonlySet<ErrorCode> = new Set<ErrorCode>([
  'APP_ERR_CLI_USAGE',
  'APP_ERR_SERVE_LISTEN',
  'APP_ERR_SERVE_EXPOSED',
  'APP_ERR_APP_LOAD',
  'APP_ERR_APP_INVALID',
  'APP_ERR_ROUTING_BAD_DEFINITION',
  'APP_ERR_INIT_NOT_EMPTY',
  'APP_ERR_PROFILER_STORE_URL',
  'APP_ERR_PROFILER_STORE_UNAVAILABLE',
  'APP_ERR_PROFILER_STORE_AUTH',
  'APP_ERR_PROFILER_STORE_NO_DATABASE',
  'APP_ERR_PROFILER_STORE_SCHEMA',
]);

export function exitCodeFor(code: ErrorCode): number {
  return USAGE_CODES.has(code) ? EXIT.USAGE : EXIT.FAILURE;
}
