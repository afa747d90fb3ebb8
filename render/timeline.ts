import type { Profile } from '../core/profiler/profile.js';

export type TimelineKind = 'phase' | 'listener' | 'span' | 'http' | 'query';

/** One bar of the request's waterfall; ms since the request started. */
export interface TimelineRow {
  kind: TimelineKind;
  label: string;
  start: number;
  /** null: never finished (a span left running, a call still in flight) */
  duration: number | null;
}

/** Where each event's listeners ran, when the calls carry no start of their own. */
const EVENT_PHASES: Record<string, string> = {
  'kernel.request': 'routing',
  'kernel.view': 'view',
  'kernel.response': 'response',
  'kernel.exception': 'exception',
};

/**
 * The kernel's phases in order, then every listener call in event order, then the app's spans,
 * outgoing HTTP calls and database queries by start: a fixed order whatever the timings, the bars give the positions.
 * Listener calls are placed at their recorded start; in profiles recorded before calls kept one, they
 * are laid end to end from their event's phase (or after the bar before them), an estimate.
 */
export function timelineRows(profile: Profile): TimelineRow[] {
  const { time, events, http_client: http, db } = profile.collectors;
  const rows: TimelineRow[] = time.phases.map((phase) => ({
    kind: 'phase',
    label: phase.name,
    start: phase.start,
    duration: phase.duration,
  }));
  let cursor = 0;
  for (const event of events.events) {
    const phase = time.phases.find((p) => p.name === EVENT_PHASES[event.name]);
    if (phase) cursor = Math.max(cursor, phase.start);
    for (const call of event.listeners) {
      const start = typeof call.start === 'number' ? call.start : cursor;
      rows.push({ kind: 'listener', label: `${event.name} · ${call.listener}`, start, duration: call.duration });
      cursor = start + call.duration;
    }
  }
  const app: TimelineRow[] = [
    ...(time.spans ?? []).map(
      (span): TimelineRow => ({ kind: 'span', label: span.name, start: span.start, duration: span.duration }),
    ),
    ...(http?.calls ?? []).map(
      (call): TimelineRow => ({
        kind: 'http',
        label: `${call.method} ${call.url}`,
        start: call.start,
        duration: call.duration,
      }),
    ),
    ...(db?.queries ?? []).map(
      (query): TimelineRow => ({
        kind: 'query',
        label: `SQL ${query.sql}`,
        start: query.start,
        duration: query.duration ?? null,
      }),
    ),
  ];
  return [...rows, ...app.sort((a, b) => a.start - b.start)];
}

/** The axis' end: the request's duration, or the last bar's end if one runs past it. */
export function timelineEnd(profile: Profile, rows: readonly TimelineRow[]): number {
  return Math.max(profile.collectors.time.duration, ...rows.map((row) => row.start + (row.duration ?? 0)));
}
