import { AppError } from '../../errors.js';

/** The store's URL as shown in messages: never its password, given before the host or as a parameter (?password=). */
export function displayUrl(url: URL): string {
  const shown = new URL(url.toString());
  shown.password = '';
  for (const name of [...shown.searchParams.keys()]) if (/password/i.test(name)) shown.searchParams.delete(name);
  return shown.toString();
}

/** A postgres:// or postgresql:// URL, or an AppError naming what is wrong with it. */
export function parseDatabaseUrl(location: string): URL {
  let url: URL;
  try {
    url = new URL(location);
  } catch {
    throw new AppError(
      'APP_ERR_PROFILER_STORE_URL',
      `Invalid profile database URL "${location.replace(/:[^:@/]*@/, ':***@').replace(/(password=)[^&#]*/gi, '$1***')}": expected postgres://user:password@host:port/database.`,
    );
  }
  if (url.protocol !== 'postgres:' && url.protocol !== 'postgresql:') {
    throw new AppError(
      'APP_ERR_PROFILER_STORE_URL',
      `Invalid profile database URL "${displayUrl(url)}": the scheme must be postgres:// or postgresql://.`,
    );
  }
  if (url.hostname === '')
    throw new AppError(
      'APP_ERR_PROFILER_STORE_URL',
      `Invalid profile database URL "${displayUrl(url)}": it names no host.`,
    );
  if (url.pathname.length <= 1)
    throw new AppError(
      'APP_ERR_PROFILER_STORE_URL',
      `Invalid profile database URL "${displayUrl(url)}": it names no database (postgres://user@host:port/database).`,
    );
  return url;
}

const CONNECTION_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

/**
 * True when the database could not be reached, went away, or is out of a resource for now (too
 * many connections, a full disk: the profiles waiting are kept and written once it is back), false
 * for an error about the statement or its data.
 */
export function isConnectionError(error: unknown): boolean {
  const { code, message } = error as { code?: string; message?: string };
  if (code && (CONNECTION_CODES.has(code) || code.startsWith('08') || code.startsWith('57P') || isOutOfResources(code)))
    return true;
  return /Connection terminated|connection timeout|timeout exceeded when trying to connect|Client has encountered a connection error|not queryable/i.test(
    message ?? '',
  );
}

/** SQLSTATE class 53: the server answers but lacks connections, disk or memory for now. */
function isOutOfResources(code: string | undefined): boolean {
  return code !== undefined && code.startsWith('53');
}

/** Why opening the store failed, one line naming the problem. */
export function openFailure(url: URL, error: unknown): AppError {
  const { code, message } = error as { code?: string; message?: string };
  const where = `${url.hostname}:${url.port || 5432}`;
  const user = decodeURIComponent(url.username) || url.searchParams.get('user') || '(the current user)';
  const database = decodeURIComponent(url.pathname.slice(1));
  const reason = (message ?? String(error)).split('\n')[0];
  if (code === '28P01' || code === '28000' || /SASL|password must be a string/i.test(reason)) {
    return new AppError(
      'APP_ERR_PROFILER_STORE_AUTH',
      `The profile database at ${where} refused user "${user}": wrong user or password (${reason}).`,
      { cause: error },
    );
  }
  if (code === '3D000') {
    return new AppError(
      'APP_ERR_PROFILER_STORE_NO_DATABASE',
      `The profile database "${database}" does not exist on ${where}: create it (createdb ${database}) or fix the URL.`,
      { cause: error },
    );
  }
  if (isConnectionError(error) && !isOutOfResources(code)) {
    return new AppError(
      'APP_ERR_PROFILER_STORE_UNAVAILABLE',
      `Cannot reach the profile database at ${where} (${code ?? reason}): is PostgreSQL running there?`,
      { cause: error },
    );
  }
  return new AppError(
    'APP_ERR_PROFILER_STORE_UNAVAILABLE',
    `The profile database ${displayUrl(url)} cannot be used: ${reason}.`,
    { cause: error },
  );
}
