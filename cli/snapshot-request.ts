import { AppError } from '../core/errors.js';

/** What `app snapshot` sends for every path: a method, headers and a body, as curl's -X, -H and --data. */
export interface SnapshotRequest {
  method: string;
  headers: Record<string, string>;
  body?: Buffer;
}

const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

/** commander's collector for `-H, --header "Name: value"`, repeatable. */
export function collectRequestHeader(value: string, previous: string[]): string[] {
  const at = value.indexOf(':');
  if (at <= 0 || !TOKEN.test(value.slice(0, at).trim()))
    throw new AppError('APP_ERR_CLI_USAGE', `Invalid header "${value}": expected "Name: value".`);
  return [...previous, value];
}

/**
 * The request from the options: `--data` without `-X` is a POST (as curl's), and a body without a
 * Content-Type header is sent as JSON when it parses as JSON, else as a urlencoded form.
 */
export function snapshotRequest(options: {
  method?: string;
  header: readonly string[];
  data?: string;
}): SnapshotRequest {
  const method = (options.method ?? (options.data === undefined ? 'GET' : 'POST')).toUpperCase();
  if (!TOKEN.test(method))
    throw new AppError(
      'APP_ERR_CLI_USAGE',
      `Invalid --method "${options.method}": expected a method name such as POST.`,
    );
  const headers: Record<string, string> = {};
  for (const header of options.header) {
    const at = header.indexOf(':');
    headers[header.slice(0, at).trim().toLowerCase()] = header.slice(at + 1).trim();
  }
  if (options.data === undefined) return { method, headers };
  if ((method === 'GET' || method === 'HEAD') && options.method !== undefined) {
    throw new AppError(
      'APP_ERR_CLI_USAGE',
      `--data sends a body, which a ${method} request does not carry: use -X POST (or leave -X out).`,
    );
  }
  const body = Buffer.from(options.data, 'utf8');
  headers['content-type'] ??= isJson(options.data) ? 'application/json' : 'application/x-www-form-urlencoded';
  headers['content-length'] = String(body.length);
  return { method, headers, body };
}

function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return /^\s*[[{]/.test(text);
  } catch {
    return false;
  }
}
