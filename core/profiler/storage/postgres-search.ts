import type { SearchQuery } from '../profile.js';
import { IP_INDEX_CONDITION, LOOPBACK_IPS, PROFILES_TABLE, URLS_TABLE } from './postgres-schema.js';

export interface SqlCondition {
  /** `WHERE …`, or '' */
  where: string;
  params: unknown[];
}

/** A LIKE pattern matching `text` anywhere, its wildcards escaped (LIKE's default escape is a backslash). */
export function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/**
 * A URL part matching more distinct URLs than this is looked up by the search itself (a subquery)
 * rather than named hash by hash.
 */
export const MAX_NAMED_URLS = 1_000;

/** The hashes of the distinct URLs that contain `url` (their trigram index): one more than MAX_NAMED_URLS at most. */
export function urlLookup(url: string): { text: string; params: unknown[] } {
  return {
    text: `SELECT hash FROM ${URLS_TABLE} WHERE url LIKE $1 LIMIT ${MAX_NAMED_URLS + 1}`,
    params: [containsPattern(url)],
  };
}

/** An IP part found in more distinct IPs than this is matched walking the profiles, as a substring. */
export const MAX_NAMED_IPS = 1_000;

/**
 * The distinct IPs the IP index holds that contain `ip`, found walking the index from one distinct
 * address to the next (a descent each: a server sees a few addresses, whatever its number of
 * profiles); `complete` false when it holds more than MAX_NAMED_IPS of them or the table an IP too
 * long for the index, and the part must then be matched as a substring. The loopback addresses
 * the index leaves out are named by the caller (namedIps()).
 */
export function ipLookup(ip: string): { text: string; params: unknown[] } {
  return {
    text: `WITH RECURSIVE seen(ip, n) AS (
        (SELECT ip, 1 FROM ${PROFILES_TABLE} WHERE ${IP_INDEX_CONDITION} ORDER BY ip LIMIT 1)
        UNION ALL
        SELECT (SELECT ip FROM ${PROFILES_TABLE} WHERE ${IP_INDEX_CONDITION} AND ip > seen.ip ORDER BY ip LIMIT 1), seen.n + 1
          FROM seen WHERE seen.ip IS NOT NULL AND seen.n <= ${MAX_NAMED_IPS}
      )
      SELECT array(SELECT ip FROM seen WHERE ip LIKE $1) AS ips,
        (SELECT count(ip) FROM seen) <= ${MAX_NAMED_IPS}
          AND (SELECT length(ip) FROM ${PROFILES_TABLE} WHERE length(ip) >= 64 ORDER BY length(ip) LIMIT 1) IS NULL AS complete`,
    params: [containsPattern(ip)],
  };
}

/** The IPs to name for `ip`: ipLookup()'s answer and the loopback addresses containing it, or undefined when it was not complete. */
export function namedIps(ip: string, found: { ips: string[]; complete: boolean }): string[] | undefined {
  return found.complete ? [...found.ips, ...LOOPBACK_IPS.filter((address) => address.includes(ip))] : undefined;
}

/** What the store looked up before searching: the URLs and IPs a query's parts match, when few enough to be named. */
export interface NamedMatches {
  /** the hashes of the URLs the URL part matches (urlLookup()) */
  urlHashes?: readonly string[];
  /** the IPs the IP part may match (namedIps()) */
  ips?: readonly string[];
}

/**
 * The SearchQuery's filters as SQL, the same matches as summaryFilter(): status exact ("404"),
 * a class ("4xx") or a part of the code; method case-insensitive; IP and URL substrings
 * (case-sensitive); token prefix; the profiler's own requests left out on demand; since and until inclusive. Parameters start at $<first>.
 * `named.urlHashes`, the URLs the URL part matches (urlLookup()) when MAX_NAMED_URLS or fewer: named,
 * the planner knows from its statistics how many profiles they have, and walks the time index for
 * a frequent URL, the URL index for a rare one; a subquery leaves it guessing. `named.ips`, likewise,
 * the IPs the IP part matches: the IP index then finds and counts their profiles (unless one is a
 * loopback address, which it leaves out).
 */
export function searchCondition(query: SearchQuery, first = 1, named: NamedMatches = {}): SqlCondition {
  const { urlHashes, ips } = named;
  const clauses: string[] = [];
  const params: unknown[] = [];
  const param = (value: unknown): string => {
    params.push(value);
    return `$${first + params.length - 1}`;
  };
  if (query.status) {
    const wanted = query.status.trim().toLowerCase();
    // The class as well, so that its index serves an exact status too (walking the class newest first).
    if (/^[0-9]{3}$/.test(wanted))
      clauses.push(`status / 100 = ${param(Number(wanted[0]))} AND status = ${param(Number(wanted))}`);
    else if (/^[0-9]xx$/.test(wanted)) {
      clauses.push(`status / 100 = ${param(Number(wanted[0]))}`);
    } else clauses.push(`status::text LIKE ${param(containsPattern(wanted))}`);
  }
  if (query.method) clauses.push(`upper(method) = ${param(query.method.trim().toUpperCase())}`);
  if (query.ip) {
    if (ips === undefined) clauses.push(`ip LIKE ${param(containsPattern(query.ip))}`);
    else if (ips.length === 0) clauses.push('false');
    else {
      const equal = ips.length === 1 ? `ip = ${param(ips[0])}` : `ip = ANY(${param(ips)}::text[])`;
      const indexed = ips.every((address) => !LOOPBACK_IPS.includes(address));
      clauses.push(indexed ? `${equal} AND ${IP_INDEX_CONDITION}` : equal);
    }
  }
  if (query.url) {
    if (urlHashes === undefined)
      clauses.push(`url_hash IN (SELECT hash FROM ${URLS_TABLE} WHERE url LIKE ${param(containsPattern(query.url))})`);
    else if (urlHashes.length === 0) clauses.push('false');
    else if (urlHashes.length === 1) clauses.push(`url_hash = ${param(urlHashes[0])}::uuid`);
    else clauses.push(`url_hash = ANY(${param(urlHashes)}::uuid[])`);
  }
  if (query.token)
    clauses.push(`token LIKE ${param(`${query.token.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`)}`);
  if (query.hideProfiler) clauses.push('profiler = false');
  if (query.since !== undefined) clauses.push(`time >= ${param(query.since)}`);
  if (query.until !== undefined) clauses.push(`time <= ${param(query.until)}`);
  if (query.order === 'arrival' && query.afterArrival !== undefined) clauses.push(`seq > ${param(query.afterArrival)}`);
  return { where: clauses.length ? `WHERE ${clauses.join(' AND ')}` : '', params };
}

/**
 * Whether the query filters on status, method and the profiler flag alone: its condition then
 * holds on the counts table, whose columns bear the same names (method upper-cased).
 */
export function countableFromTotals(query: SearchQuery): boolean {
  return (
    !query.ip &&
    !query.url &&
    !query.token &&
    query.since === undefined &&
    query.until === undefined &&
    query.afterArrival === undefined
  );
}
