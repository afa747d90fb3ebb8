import { spanMs, type Request } from '../http/request.js';
import type { ExceptionData } from '../kernel/exception-data.js';
import {
  CALL_STRIDE,
  NotifiedRecord,
  PropagationRecord,
  PHASE_STRIDE,
  RecordingTrace,
  traceNames,
  type RequestTrace,
} from '../kernel/request-trace.js';
import type { ListenerCall, Phase, SecurityData } from '../kernel/trace-data.js';
import type { LogRecord } from '../log/log-record.js';
import { MatchedRouteRecord } from '../kernel/router-listener.js';
import { NOTIFIED_REF, type NotifiedRef } from './notified-ref.js';

/** A request's log as the trace's facts read it. */
export interface TraceLog {
  readonly records: readonly LogRecord[];
  readonly errors: number;
  readonly warnings: number;
}

/**
 * What the profile builder reads of a request's trace, in the profile's words: names instead of
 * ids, ms since the request started instead of clock readings. Made from the live trace on the
 * main thread, or from the one the profiler worker reads back from a hand-off record.
 */
export interface TraceFacts {
  readonly token: string | null;
  /** ms, the request's duration when its response was ready */
  readonly duration: number;
  /** `Notified event` records carry NOTIFIED_REF */
  readonly log: TraceLog;
  readonly events: readonly { name: string; listeners: ListenerCall[] }[];
  readonly phases: readonly Phase[];
  /** the path the router redirected to (trailing slash), null when it did not */
  readonly redirect: string | null;
  readonly security: SecurityData | null;
  readonly exception: ExceptionData | null;
  /** the app's entries (RequestTrace.addEntry) by collector name */
  readonly entries: ReadonlyMap<string, readonly unknown[]>;
}

const NO_ENTRIES: ReadonlyMap<string, readonly unknown[]> = new Map();

/** The facts of `trace`, whose ids are names[id]; `log` is the request's log, `duration` in ms. */
export function traceFacts(
  trace: RecordingTrace,
  log: TraceLog,
  duration: number,
  names: readonly string[],
): TraceFacts {
  const events = trace.events.map((id) => ({ name: names[id] ?? '(unknown event)', listeners: [] as ListenerCall[] }));
  const refs: NotifiedRef[] = [];
  const { calls } = trace;
  for (let at = 0; at < calls.length; at += CALL_STRIDE) {
    const listeners = events[calls[at]]?.listeners;
    if (!listeners) continue;
    refs[at / CALL_STRIDE] = [calls[at], listeners.length];
    listeners.push({
      listener: names[calls[at + 1]] ?? '(unknown listener)',
      duration: spanMs(calls[at + 2], calls[at + 3]),
      stoppedPropagation: calls[at + 4] === 1,
      start: spanMs(trace.origin, calls[at + 2]),
    });
  }
  const phases: Phase[] = [];
  const { origin } = trace;
  for (let at = 0; at < trace.phases.length; at += PHASE_STRIDE) {
    const start = spanMs(origin, trace.phases[at + 1]);
    phases.push({
      name: names[trace.phases[at]] ?? '(unknown phase)',
      start,
      duration: spanMs(start, spanMs(origin, trace.phases[at + 2])),
    });
  }
  const records = log.records.map((record): LogRecord => {
    if (record instanceof NotifiedRecord) return withRef(record, refs[record.call]);
    if (record instanceof PropagationRecord)
      return {
        time: record.time,
        level: record.level,
        channel: record.channel,
        message: record.message,
        context: record.context,
      };
    return record instanceof MatchedRouteRecord ? record.toJSON() : record;
  });
  return {
    token: trace.token,
    duration,
    log: { records, errors: log.errors, warnings: log.warnings },
    events,
    phases,
    redirect: trace.match?.type === 'redirect' ? trace.match.path : null,
    security: trace.security,
    exception: trace.exception,
    entries: trace.entries ?? NO_ENTRIES,
  };
}

/** The facts of a live request's trace, read on the main thread (the in-thread builder: tests, bench:stages). */
export function liveTraceFacts(request: Request, trace: RequestTrace): TraceFacts {
  if (!(trace instanceof RecordingTrace))
    throw new Error('This request was not traced: its kernel runs without debug.');
  return traceFacts(trace, request.log, trace.duration ?? request.elapsed(), traceNames());
}

function withRef(record: NotifiedRecord, ref: NotifiedRef | undefined): LogRecord {
  const plain: LogRecord & { [NOTIFIED_REF]?: NotifiedRef } = {
    time: record.time,
    level: record.level,
    channel: record.channel,
    message: record.message,
    context: record.context,
  };
  if (ref) plain[NOTIFIED_REF] = ref;
  return plain;
}
