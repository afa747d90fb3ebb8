import type { LogRecord } from '../log/log-record.js';
import type { LogSink } from '../log/logger.js';
import type { MatchResult } from '../routing/matcher.js';
import type { ExceptionData } from './exception-data.js';
import type { SecurityData } from './trace-data.js';

/**
 * What the kernel records of one request while it runs, in its own words and cheaply: numbers
 * and references, never a profile. The profiler turns it into one elsewhere (core/profiler/).
 * In `--no-debug` every request gets NO_TRACE, whose methods do nothing, so the kernel, the
 * dispatcher and the listeners call the trace unconditionally.
 *
 * For code above the kernel (the app's controllers, a custom panel):
 *   - `context.trace` in a controller, `event.trace` in a listener, is the request's trace;
 *   - `trace.addEntry(collector, value)` keeps `value` for the panel named `collector` ("dump",
 *     "http_client", a custom panel). Entries stay in order; the value must be plain data (it is
 *     serialised to reach the profiler worker, where build-profile.ts hands a collector its own
 *     entries by name). A no-op without the profiler.
 */
export interface RequestTrace {
  /** the profile token; null when the request is not profiled (always null on NO_TRACE) */
  token: string | null;
  /** a clock for the spans below (performance.now(); 0 on NO_TRACE) */
  now(): number;
  /**
   * The trace's last clock reading (a now(), a call's or a phase's end), without reading the clock
   * again: for a span that starts or ends right where the last one did, with no other work between.
   */
  latest(): number;
  /** records a phase of the timeline that began at `start`, a now(), and ends at `end` (default: now) */
  phase(name: number, start: number, end?: number): void;
  /** an event is dispatched; returns its place among the request's events */
  dispatched(event: number): number;
  /**
   * `listener` is called for the event at `event`, from `start` (a reading just taken, or the end
   * of the call just before; default: now); returns the call's number (a call in progress lasts 0 ms)
   */
  calling(event: number, listener: TracedListener, start?: number): number;
  /** the call returned: its end, returned, and its `Notified event` log record */
  called(call: number, listener: TracedListener): number;
  /** the call threw: its end, without a log record */
  failed(call: number): void;
  /** the listener last called stopped propagation; the ones after it, from `next` on, were not called */
  stopped(eventName: string, listeners: readonly TracedListener[], at: number): void;
  /** the router's answer */
  matched(result: MatchResult): void;
  /** the firewall's decision */
  decided(decision: SecurityData['decision'], rule: string | null, message: string | null): void;
  /** the exception chain the error listener answered with */
  threw(exception: ExceptionData): void;
  /** ms, the request's duration when its response was ready */
  responded(duration: number): void;
  /** keeps `value` for the collector named `collector` (see above) */
  addEntry(collector: string, value: unknown): void;
}

/** A listener as the trace knows it: ids made at registration. */
export interface TracedListener {
  readonly name: string;
  /** traceNameId(name) */
  readonly id: number;
  /** its `Notified event` record's message and context, made once at registration */
  readonly notified: { readonly message: string; readonly context: Readonly<Record<string, string>> };
}

/**
 * Names a trace refers to by number (events, listeners, phases), registered once per process;
 * an id is never reused, so a record names them by id and the profiler learns each name once.
 */
const names: string[] = [];
const nameIds = new Map<string, number>();

export function traceNameId(name: string): number {
  let id = nameIds.get(name);
  if (id === undefined) {
    id = names.push(name) - 1;
    nameIds.set(name, id);
  }
  return id;
}

/** Every name registered so far, by id. */
export function traceNames(): readonly string[] {
  return names;
}

export const Phases = {
  routing: traceNameId('routing'),
  firewall: traceNameId('firewall'),
  controller: traceNameId('controller'),
  view: traceNameId('view'),
  response: traceNameId('response'),
  exception: traceNameId('exception'),
} as const;

/** Numbers per listener call in RecordingTrace.calls: event index, listener id, start, end, stopped (0 or 1). */
export const CALL_STRIDE = 5;
/** Numbers per phase in RecordingTrace.phases: name id, start, end. */
export const PHASE_STRIDE = 3;

/** This thread's clock origin, which never changes: a getter call less per record. */
const TIME_ORIGIN = performance.timeOrigin;

/** A log record's time (ms since the epoch) at a performance.now() reading: no second clock read. */
export function wallTime(reading: number): number {
  return Math.floor(TIME_ORIGIN + reading);
}

/** A dispatcher's `Notified event` record: the listener's message and context, referenced, and the call it notes. */
export class NotifiedRecord implements LogRecord {
  readonly level = 'DEBUG';
  readonly channel = 'event';

  constructor(
    readonly time: number,
    readonly message: string,
    readonly context: Record<string, unknown>,
    /** the call's number among the trace's calls */
    readonly call: number,
  ) {}
}

/** The trace of a profiled request (debug mode). Times are performance.now() values. */
export class RecordingTrace implements RequestTrace {
  token: string | null = null;
  /** ms, set at kernel.response; null until then */
  duration: number | null = null;
  /** event name ids, in dispatch order */
  readonly events: number[] = [];
  /** CALL_STRIDE numbers per listener call, in call order */
  readonly calls: number[] = [];
  /** PHASE_STRIDE numbers per phase, in the order they ended */
  readonly phases: number[] = [];
  /** the route the router matched, or its redirect; null when it matched none (or never ran) */
  match: MatchResult | null = null;
  security: SecurityData | null = null;
  exception: ExceptionData | null = null;
  /** app-level entries by collector name; null while there are none */
  entries: Map<string, unknown[]> | null = null;
  /** the kernel's mark on the traces it made (kernel.ts) */
  owner: object | null = null;
  #latest: number;

  /** `origin`: the request's start, a performance.now(); `log`: the request's log */
  constructor(
    readonly origin: number,
    private readonly log: LogSink,
  ) {
    this.#latest = origin;
  }

  now(): number {
    return (this.#latest = performance.now());
  }

  latest(): number {
    return this.#latest;
  }

  phase(name: number, start: number, end: number = this.now()): void {
    this.phases.push(name, start, end);
  }

  dispatched(event: number): number {
    return this.events.push(event) - 1;
  }

  calling(event: number, listener: TracedListener, start: number = this.now()): number {
    return this.calls.push(event, listener.id, start, start, 0) / CALL_STRIDE - 1;
  }

  called(call: number, listener: TracedListener): number {
    const end = this.now();
    this.calls[call * CALL_STRIDE + 3] = end;
    this.log(new NotifiedRecord(wallTime(end), listener.notified.message, listener.notified.context, call));
    return end;
  }

  failed(call: number): void {
    this.calls[call * CALL_STRIDE + 3] = this.now();
  }

  stopped(eventName: string, listeners: readonly TracedListener[], at: number): void {
    const { calls } = this;
    calls[calls.length - 1] = 1;
    const time = wallTime(calls[calls.length - 2]);
    const { name } = listeners[at];
    const event = traceNameId(eventName);
    this.log(new PropagationRecord(time, true, eventName, event, name, listeners[at].id));
    for (let i = at + 1; i < listeners.length; i++) {
      this.log(new PropagationRecord(time, false, eventName, event, listeners[i].name, listeners[i].id));
    }
  }

  matched(result: MatchResult): void {
    this.match = result;
  }

  decided(decision: SecurityData['decision'], rule: string | null, message: string | null): void {
    this.security = { decision, rule, message };
  }

  threw(exception: ExceptionData): void {
    this.exception = exception;
  }

  responded(duration: number): void {
    this.duration = duration;
  }

  addEntry(collector: string, value: unknown): void {
    this.entries ??= new Map();
    const list = this.entries.get(collector);
    if (list) list.push(value);
    else this.entries.set(collector, [value]);
  }
}

/** The trace of a request nobody profiles (`--no-debug`): it records nothing and costs nothing. */
export class NoopTrace implements RequestTrace {
  get token(): string | null {
    return null;
  }

  set token(_token: string | null) {}

  now(): number {
    return 0;
  }

  latest(): number {
    return 0;
  }

  phase(): void {}

  dispatched(): number {
    return 0;
  }

  calling(): number {
    return 0;
  }

  called(): number {
    return 0;
  }

  failed(): void {}

  stopped(): void {}

  matched(): void {}

  decided(): void {}

  threw(): void {}

  responded(): void {}

  addEntry(): void {}
}

export const NO_TRACE: RequestTrace = new NoopTrace();

/** The message of a dispatcher's record that a listener stopped propagation (`stopped`), or was not called after that. */
export function propagationMessage(stopped: boolean, eventName: string, listener: string): string {
  return stopped
    ? `Listener "${listener}" stopped propagation of the event "${eventName}".`
    : `Listener "${listener}" was not called for event "${eventName}".`;
}

/** A dispatcher's record that propagation stopped: it names its event and listener by id too, so a hand-off refers to them. */
export class PropagationRecord implements LogRecord {
  readonly level = 'DEBUG';
  readonly channel = 'event';
  readonly message: string;
  readonly context: Record<string, unknown>;

  constructor(
    readonly time: number,
    readonly stopped: boolean,
    eventName: string,
    readonly eventId: number,
    listener: string,
    readonly listenerId: number,
  ) {
    this.message = propagationMessage(stopped, eventName, listener);
    this.context = { event: eventName, listener };
  }
}
