import { readStoredData } from './damaged-data.js';
import type { BodyStructure, LogLevel, Profile } from './profile.js';

export interface ProfileDiffRow {
  field: string;
  a: string;
  b: string;
  same: boolean;
}

export interface ProfileDiff {
  a: string;
  b: string;
  rows: ProfileDiffRow[];
  same: boolean;
}

export interface DiffOptions {
  /** fields that may differ without making the profiles differ (e.g. durations) */
  informational?: ReadonlySet<string>;
  /** only these fields (default: all) */
  fields?: ReadonlySet<string>;
}

const DEFAULT_INFORMATIONAL = new Set(['duration', 'events called']);

/**
 * Compares two profiles field by field: status, route, controller, exception
 * classes and messages, log records by level, response size, content type, page
 * title, body structure, database queries (when either ran any), events called and duration per phase. Durations are
 * shown but never make profiles "differ", nor does the size of two HTML pages whose structure is known.
 */
export function diffProfiles(a: Profile, b: Profile, options: DiffOptions = {}): ProfileDiff {
  return readStoredData(`Profiles "${a.token}" and "${b.token}" cannot be compared`, () => compare(a, b, options));
}

function compare(a: Profile, b: Profile, options: DiffOptions): ProfileDiff {
  const informational = options.informational ?? DEFAULT_INFORMATIONAL;
  const rows: ProfileDiffRow[] = [];
  const add = (field: string, x: unknown, y: unknown, comparable = true) => {
    if (options.fields && !options.fields.has(field)) return;
    const [sx, sy] = [show(x), show(y)];
    const same = sx === sy || !comparable || informational.has(field) || field.startsWith('time ');
    rows.push({ field, a: sx, b: sy, same });
  };
  add('status', a.status, b.status);
  add('method', a.method, b.method);
  add(
    'route',
    a.collectors.router.route ?? a.collectors.router.redirect ?? '(none)',
    b.collectors.router.route ?? b.collectors.router.redirect ?? '(none)',
  );
  add('controller', a.collectors.request.controller ?? '(none)', b.collectors.request.controller ?? '(none)');
  add('exception classes', exceptionField(a, 'class'), exceptionField(b, 'class'));
  add('exception messages', exceptionField(a, 'message'), exceptionField(b, 'message'));
  add('log errors', a.collectors.log.errors, b.collectors.log.errors);
  add('log warnings', a.collectors.log.warnings, b.collectors.log.warnings);
  for (const level of levels(a, b)) add(`log ${level}`, countLevel(a, level), countLevel(b, level));
  const [sa, sb] = [a.collectors.request.response.structure, b.collectors.request.response.structure];
  // Two HTML pages whose structure is known: that stands for their size, which the toolbar's time and token vary.
  add(
    'response size',
    a.collectors.request.response.size ?? '?',
    b.collectors.request.response.size ?? '?',
    !(isHtml(a) && isHtml(b) && !!sa && !!sb),
  );
  add(
    'content type',
    a.collectors.request.response.contentType ?? '(none)',
    b.collectors.request.response.contentType ?? '(none)',
  );
  add('page title', a.collectors.request.response.title ?? '(none)', b.collectors.request.response.title ?? '(none)');
  add('body structure', structure(sa), structure(sb), !!sa && !!sb);
  if (a.collectors.db || b.collectors.db) {
    // What a fix of an N+1 changes: how many queries ran, and the repeated-query warnings.
    add('database queries', a.collectors.db?.queries.length ?? 0, b.collectors.db?.queries.length ?? 0);
    add('database failures', a.collectors.db?.errors ?? 0, b.collectors.db?.errors ?? 0);
    add('repeated queries', repeatedQueries(a), repeatedQueries(b));
  }
  add('events called', eventNames(a), eventNames(b));
  add('duration', `${a.duration.toFixed(1)} ms`, `${b.duration.toFixed(1)} ms`);
  for (const phase of phaseNames(a, b)) add(`time ${phase}`, phaseTime(a, phase), phaseTime(b, phase));
  return { a: a.token, b: b.token, rows, same: rows.every((r) => r.same) };
}

function isHtml(p: Profile): boolean {
  return (p.collectors.request.response.contentType ?? '').startsWith('text/html');
}

function show(value: unknown): string {
  return typeof value === 'string' ? value : String(value);
}

/** `html, 170 elements, #1f0c3a9e`; compared only when both bodies were fingerprinted (not too large, nor recorded before fingerprints). */
function structure(s: BodyStructure | null | undefined): string {
  if (s === undefined) return '(not recorded)';
  if (s === null) return '(none)';
  return `${s.kind}, ${s.nodes} ${s.kind === 'html' ? 'elements' : 'values'}, #${s.hash}`;
}

function exceptionField(p: Profile, key: 'class' | 'message'): string {
  return p.collectors.exception?.chain.map((e) => e[key]).join(' <- ') || '(none)';
}

function levels(a: Profile, b: Profile): LogLevel[] {
  const set = new Set<LogLevel>();
  for (const p of [a, b]) for (const r of p.collectors.log.records) set.add(r.level);
  return [...set];
}

function countLevel(p: Profile, level: LogLevel): number {
  return p.collectors.log.records.filter((r) => r.level === level).length;
}

/** Each repeated-query (N+1) warning as "20 × SELECT … ? at app.ts:13"; "(none)". */
function repeatedQueries(p: Profile): string {
  const repeated = p.collectors.db?.repeated ?? [];
  if (repeated.length === 0) return '(none)';
  return repeated
    .map(
      ({ count, shape, frame }) =>
        `${count} × ${shape} at ${frame.file ?? '?'}${frame.line == null ? '' : `:${frame.line}`}`,
    )
    .join('; ');
}

function eventNames(p: Profile): string {
  return p.collectors.events.events
    .filter((e) => e.listeners.length > 0)
    .map((e) => e.name)
    .join(', ');
}

function phaseNames(a: Profile, b: Profile): string[] {
  return [...new Set([...a.collectors.time.phases, ...b.collectors.time.phases].map((p) => p.name))];
}

function phaseTime(p: Profile, name: string): string {
  const total = p.collectors.time.phases.filter((x) => x.name === name).reduce((sum, x) => sum + x.duration, 0);
  return `${total.toFixed(2)} ms`;
}
