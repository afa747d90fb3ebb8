import { AppError } from '../errors.js';
import type { Profile } from './profile.js';
import { showControls } from './shell-quote.js';

/** Where a recorded request is sent again (replay) or pointed at (curl and HAR exports). */
export interface ReplayOrigin {
  /** scheme://host:port, no path */
  origin: string;
  /** the path of `--target` the recorded path is sent under ("/base"), without a trailing slash; '' for none */
  prefix: string;
  /** says which recorded Host was not used and where the request goes instead; null when nothing was replaced */
  replaced: string | null;
}

const LOOPBACK_AUTHORITY = /^(localhost|127(\.\d{1,3}){3}|\[::1\])(:\d{1,5})?$/i;
const TARGET = /^https?:\/\/[^/?#\\@\s]+(\/[^?#\\\s]*)?$/i;

/** Where `--target` sends: its origin, and its path as a prefix of the recorded path. */
export interface ReplayTarget {
  origin: string;
  prefix: string;
}

/**
 * The http(s) origin `text` names and its path (without a trailing slash), to put before the
 * recorded path; null when it is not one (no scheme, another scheme, a query, a fragment or credentials).
 */
export function parseTarget(text: string): ReplayTarget | null {
  if (!TARGET.test(text)) return null;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return null;
  }
  if (url.search || url.hash || url.username || url.password) return null;
  return { origin: url.origin, prefix: url.pathname.replace(/\/+$/, '') };
}

export function invalidTargetMessage(text: string): string {
  return `Invalid --target "${text}": expected an http(s) URL such as http://127.0.0.1:9000 or http://127.0.0.1:9000/base (no query, fragment or credentials).`;
}

/**
 * The origin to send a recorded request to. The Host in `profile.url` is whatever the client sent,
 * so it is never trusted: without `target`, the request goes to loopback on the port the server
 * answered on (`[::1]` when that was IPv6 loopback, else 127.0.0.1). A profile stored before the
 * server address was recorded is sent to its recorded origin only when that host is loopback.
 * Fails with APP_ERR_REPLAY for an invalid `target`, and for an old profile with another host.
 */
export function replayOrigin(profile: Profile, target?: string): ReplayOrigin {
  if (target !== undefined) {
    const parsed = parseTarget(target);
    if (parsed === null) throw new AppError('APP_ERR_REPLAY', invalidTargetMessage(target));
    return { ...parsed, replaced: null };
  }
  const scheme = profile.url.slice(0, 8).toLowerCase() === 'https://' ? 'https' : 'http';
  const authority = recordedAuthority(profile.url);
  const server = profile.collectors.request.server;
  if (!server) {
    if (LOOPBACK_AUTHORITY.test(authority)) return { origin: `${scheme}://${authority}`, prefix: '', replaced: null };
    throw new AppError(
      'APP_ERR_REPLAY',
      `The profile ${profile.token} was recorded with Host "${showControls(authority)}", which is not loopback, and without the address its server answered on: give the server to send to with --target (e.g. --target http://127.0.0.1:8741).`,
    );
  }
  const defaultPort = server.port === (scheme === 'https' ? 443 : 80);
  const origin = `${scheme}://${server.address === '::1' ? '[::1]' : '127.0.0.1'}${defaultPort ? '' : `:${server.port}`}`;
  const same = `${scheme}://${authority}`.toLowerCase() === origin;
  return {
    origin,
    prefix: '',
    replaced: same ? null : `origin replaced: recorded Host ${showControls(authority)}, sent to ${origin}`,
  };
}

/** The Host part of a recorded URL: from after "scheme://" to the first "/" (a request target starts with one). */
function recordedAuthority(url: string): string {
  const start = url.indexOf('://') + 3;
  const end = url.indexOf('/', start);
  return url.slice(start, end === -1 ? url.length : end);
}

/**
 * The recorded request target (path and query) as sent: the profile's `path`, then the query
 * that follows it in `url`. Never parsed as a URL, so "//evil.example/x" stays a path.
 */
export function recordedTarget(profile: Profile): string {
  const { url } = profile;
  const path = profile.collectors.request.path;
  const start = url.indexOf('://') + 3;
  for (let at = url.indexOf(path, start); at !== -1; at = url.indexOf(path, at + 1)) {
    const rest = url.slice(at + path.length);
    if (rest === '' || rest[0] === '?') return path + rest;
  }
  const slash = url.indexOf('/', start);
  const q = slash === -1 ? -1 : url.indexOf('?', slash);
  return q === -1 ? path : path + url.slice(q);
}
