import { isIPv6 } from 'node:net';

/** A Host header value taken apart: the host lower-cased (an IP literal keeps its brackets), the port if one was given. */
export interface Authority {
  host: string;
  port: number | null;
}

/** The names a dev server always answers as, whatever the port: DNS cannot rebind them. */
export const LOOPBACK_HOSTS: readonly string[] = ['localhost', '127.0.0.1', '[::1]'];

// RFC 3986 §3.2.2: reg-name = *( unreserved / pct-encoded / sub-delims ); an IPv4 address is one too.
const REG_NAME = /^(?:[a-z0-9\-._~!$&'()*+,;=]|%[0-9a-f]{2})+$/i;
// RFC 3986 §3.2.2: IPvFuture = "v" 1*HEXDIG "." 1*( unreserved / sub-delims / ":" )
const IP_FUTURE = /^v[0-9a-f]+\.[a-z0-9\-._~!$&'()*+,;=:]+$/i;

/**
 * The authority of a Host header (RFC 9112 §3.2: uri-host [":" port]), or null when
 * it is not one: empty, userinfo (`a@b`), spaces, a path, two ports, an unbalanced
 * bracket, a port that is not 1 to 5 digits up to 65535.
 */
export function parseAuthority(value: string): Authority | null {
  let host: string;
  let rest: string;
  if (value.startsWith('[')) {
    const close = value.indexOf(']');
    if (close === -1) return null;
    const literal = value.slice(1, close);
    if (!isIPv6(literal) && !IP_FUTURE.test(literal)) return null;
    host = value.slice(0, close + 1);
    rest = value.slice(close + 1);
  } else {
    const colon = value.indexOf(':');
    host = colon === -1 ? value : value.slice(0, colon);
    rest = colon === -1 ? '' : value.slice(colon);
    if (!REG_NAME.test(host)) return null;
  }
  if (rest === '') return { host: host.toLowerCase(), port: null };
  if (!/^:\d{1,5}$/.test(rest)) return null;
  const port = Number(rest.slice(1));
  return port > 65535 ? null : { host: host.toLowerCase(), port };
}

/**
 * A name given to `--allow-host` or `--host`, in the form a Host header carries it
 * (an IPv6 address bracketed, lower-cased), or null when it is not a host name or
 * address, or when it has a port.
 */
export function normaliseHostName(name: string): string | null {
  const bracketed = isIPv6(name) ? `[${name}]` : name;
  const authority = parseAuthority(bracketed);
  return authority && authority.port === null ? authority.host : null;
}

/** The hosts a server answers as: loopback plus the names it was given, compared case-insensitively, any port. */
export class HostPolicy {
  readonly names: readonly string[];
  readonly #allowed: ReadonlySet<string>;

  /** `names` must be valid host names (see normaliseHostName); an invalid one is ignored. */
  constructor(names: readonly string[] = []) {
    const given = names.map(normaliseHostName).filter((name): name is string => name !== null);
    this.names = [...new Set([...LOOPBACK_HOSTS, ...given])];
    this.#allowed = new Set(this.names);
  }

  allows(authority: Authority): boolean {
    return this.#allowed.has(authority.host);
  }
}

/**
 * `policy.allows()` of a Host header value, null when the value is no authority; the last value's
 * answer is kept, as a server under load is sent the same Host again and again.
 */
export function hostChecker(policy: HostPolicy): (value: string) => boolean | null {
  let last: string | null = null;
  let verdict: boolean | null = null;
  return (value) => {
    if (value !== last) {
      const authority = parseAuthority(value);
      verdict = authority === null ? null : policy.allows(authority);
      last = value;
    }
    return verdict;
  };
}
