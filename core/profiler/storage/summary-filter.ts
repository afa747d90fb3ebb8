import type { ProfileSummary, SearchQuery } from '../profile.js';

/** "404" exactly, "4xx" the class; anything else matches as a part of the code ("40" finds 400 to 409), as Symfony's search does. */
export function statusMatcher(status: string): (code: number) => boolean {
  const wanted = status.trim().toLowerCase();
  if (/^[0-9]{3}$/.test(wanted)) {
    const exact = Number(wanted);
    return (code) => code === exact;
  }
  if (/^[0-9]xx$/.test(wanted)) {
    const low = Number(wanted[0]) * 100;
    return (code) => code >= low && code < low + 100;
  }
  return (code) => String(code).includes(wanted);
}

export const methodMatcher = (method: string) => {
  const wanted = method.trim().toUpperCase();
  return (value: string) => value.toUpperCase() === wanted;
};

/** IP and URL match as substrings (case-sensitive), the token as a prefix. */
export function summaryFilter(query: SearchQuery): (summary: ProfileSummary) => boolean {
  const checks: ((summary: ProfileSummary) => boolean)[] = [];
  if (query.status) {
    const status = statusMatcher(query.status);
    checks.push((s) => status(s.status));
  }
  if (query.method) {
    const method = methodMatcher(query.method);
    checks.push((s) => method(s.method));
  }
  if (query.ip) {
    const ip = query.ip;
    checks.push((s) => s.ip.includes(ip));
  }
  if (query.url) {
    const url = query.url;
    checks.push((s) => s.url.includes(url));
  }
  if (query.token) {
    const token = query.token.toLowerCase();
    checks.push((s) => s.token.startsWith(token));
  }
  if (query.hideProfiler) checks.push((s) => !isProfilerUrl(s.url));
  if (query.since !== undefined) {
    const since = query.since;
    checks.push((s) => s.time >= since);
  }
  if (query.until !== undefined) {
    const until = query.until;
    checks.push((s) => s.time <= until);
  }
  return (summary) => checks.every((check) => check(summary));
}

/** Whether an absolute URL's path is the profiler's: `/_profiler` or under `/_profiler/`. */
export function isProfilerUrl(url: string): boolean {
  const scheme = url.indexOf('//');
  const slash = url.indexOf('/', scheme === -1 ? 0 : scheme + 2);
  if (slash === -1 || !url.startsWith('/_profiler', slash)) return false;
  const next = url[slash + 10];
  return next === undefined || next === '/' || next === '?' || next === '#';
}
