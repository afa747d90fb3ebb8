import type { SearchQuery } from '../profile.js';
import { URLS_TABLE } from './postgres-schema.js';

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
 * The SearchQuery's filters as SQL, the same matches as summaryFilter(): status exact ("404"),
 * a class ("4xx") or a part of the code; method case-insensitive; IP and URL substrings
 * (case-sensitive); token prefix; the profiler's own requests left out on demand; since and until inclusive. Parameters start at $<first>.
 */
export function searchCondition(query: SearchQuery, first = 1): SqlCondition {
  const clauses: string[] = [];
  const params: unknown[] = [];
  const param = (value: unknown): string => {
    params.push(value);
    return `$${first + params.length - 1}`;
  };
  if (query.status) {
    const wanted = query.status.trim().toLowerCase();
    // The class as well, so that its index serves an exact status too (walking the class newest first).
    if (/^[0-9]{3}$/.test(wanted)) clauses.push(`status / 100 = ${param(Number(wanted[0]))} AND status = ${param(Number(wanted))}`);
    else if (/^[0-9]xx$/.test(wanted)) {
      clauses.push(`status / 100 = ${param(Number(wanted[0]))}`);
    } else clauses.push(`status::text LIKE ${param(containsPattern(wanted))}`);
  }
  if (query.method) clauses.push(`upper(method) = ${param(query.method.trim().toUpperCase())}`);
  if (query.ip) clauses.push(`ip LIKE ${param(containsPattern(query.ip))}`);
  // The distinct URLs that match (their trigram index), then the profiles naming one of them.
  if (query.url) clauses.push(`url_hash IN (SELECT hash FROM ${URLS_TABLE} WHERE url LIKE ${param(containsPattern(query.url))})`);
  if (query.token) clauses.push(`token LIKE ${param(`${query.token.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`)}`);
  if (query.hideProfiler) clauses.push('profiler = false');
  if (query.since !== undefined) clauses.push(`time >= ${param(query.since)}`);
  if (query.until !== undefined) clauses.push(`time <= ${param(query.until)}`);
  return { where: clauses.length ? `WHERE ${clauses.join(' AND ')}` : '', params };
}

/**
 * Whether the query filters on status, method and the profiler flag alone: its condition then
 * holds on the counts table, whose columns bear the same names (method upper-cased).
 */
export function countableFromTotals(query: SearchQuery): boolean {
  return !query.ip && !query.url && !query.token && query.since === undefined && query.until === undefined;
}
