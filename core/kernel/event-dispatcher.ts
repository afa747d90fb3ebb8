import { spanMs } from '../http/request.js';
import type { LogRecord } from '../log/log-record.js';
import type { KernelEvent } from './kernel-event.js';

export type ListenerFn = (event: KernelEvent) => void | Promise<void>;

/**
 * On a `Notified event` record, where its call is in the request's events: [event, listener].
 * A symbol, so that no view nor JSON.stringify sees it; the store uses it to write the record
 * as a reference to the events panel (profiler/storage/stored-form.ts).
 */
export const NOTIFIED_CALL = Symbol('appkernel.notifiedCall');

export function notifiedMessage(eventName: string, listener: string): string {
  return `Notified event "${eventName}" to listener "${listener}".`;
}

interface Trace {
  eventName: string;
  /** the event's place in the request's events */
  index: number;
  calls: ListenerCall[];
}

interface ListenerCall {
  listener: string;
  duration: number;
  stoppedPropagation: boolean;
}

export interface Listener {
  /** shown in the log and the events panel, e.g. "RouterListener::onKernelRequest" */
  name: string;
  fn: ListenerFn;
  priority: number;
  /** its `Notified event` record's message and context, made once: every traced call logs them */
  notified: { message: string; context: Readonly<Record<string, string>> };
}

/**
 * Calls listeners by descending priority (ties: registration order). Each call
 * is logged on the request's `event` channel and timed for the events panel.
 * A listener that throws stops the dispatch; the error reaches the caller.
 */
export class EventDispatcher {
  readonly #listeners = new Map<string, Listener[]>();

  addListener(event: string, name: string, fn: ListenerFn, priority = 0): this {
    const list = this.#listeners.get(event) ?? [];
    list.push({ name, fn, priority, notified: { message: notifiedMessage(event, name), context: Object.freeze({ event, listener: name }) } });
    list.sort((a, b) => b.priority - a.priority);
    this.#listeners.set(event, list);
    return this;
  }

  listeners(event: string): readonly Listener[] {
    return this.#listeners.get(event) ?? [];
  }

  /**
   * The event once every listener ran. It comes back synchronously when no listener returns a
   * promise: a request would otherwise pay a promise per event.
   */
  dispatch(eventName: string, event: KernelEvent): KernelEvent | Promise<KernelEvent> {
    if (event.request.traced) return this.#dispatchTraced(eventName, event);
    const listeners = this.#listeners.get(eventName);
    if (!listeners) return event;
    for (let i = 0; i < listeners.length; i++) {
      const pending = listeners[i].fn(event);
      if (pending) return this.#finishUntraced(listeners, i, pending, event);
      if (event.propagationStopped) break;
    }
    return event;
  }

  #dispatchTraced(eventName: string, event: KernelEvent): KernelEvent | Promise<KernelEvent> {
    const calls: ListenerCall[] = [];
    const trace: Trace = { eventName, index: event.request.events.push({ name: eventName, listeners: calls }) - 1, calls };
    const listeners = this.#listeners.get(eventName) ?? [];
    return this.#traceFrom(trace, event, listeners, 0);
  }

  /** Calls the listeners from `from` on, timing and logging each; async only from a listener that returns a promise. */
  #traceFrom(trace: Trace, event: KernelEvent, listeners: readonly Listener[], from: number): KernelEvent | Promise<KernelEvent> {
    const { calls } = trace;
    for (let i = from; i < listeners.length; i++) {
      const listener = listeners[i];
      const call: ListenerCall = { listener: listener.name, duration: 0, stoppedPropagation: false };
      calls.push(call);
      const start = performance.now();
      let pending: void | Promise<void>;
      try {
        pending = listener.fn(event);
      } finally {
        call.duration = spanMs(start, performance.now());
      }
      if (pending) return this.#awaitTraced(trace, event, listeners, i, call, start, pending);
      if (this.#afterTraced(trace, event, listeners, i, call)) break;
    }
    return event;
  }

  async #awaitTraced(trace: Trace, event: KernelEvent, listeners: readonly Listener[], at: number,
    call: ListenerCall, start: number, pending: Promise<void>): Promise<KernelEvent> {
    try {
      await pending;
    } finally {
      call.duration = spanMs(start, performance.now());
    }
    if (this.#afterTraced(trace, event, listeners, at, call)) return event;
    return this.#traceFrom(trace, event, listeners, at + 1);
  }

  /** Logs the call of listeners[at], after it ran as Symfony's traceable dispatcher does; true when it stopped propagation. */
  #afterTraced(trace: Trace, event: KernelEvent, listeners: readonly Listener[], at: number, call: ListenerCall): boolean {
    const eventLog = event.request.log.sink;
    const { eventName } = trace;
    const { name, notified: { message, context } } = listeners[at];
    const notified: MarkedRecord = { time: Date.now(), level: 'DEBUG', channel: 'event', message, context };
    notified[NOTIFIED_CALL] = [trace.index, trace.calls.indexOf(call)];
    eventLog(notified);
    if (!event.propagationStopped) return false;
    call.stoppedPropagation = true;
    eventLog(record(`Listener "${name}" stopped propagation of the event "${eventName}".`, eventName, name));
    for (const skipped of listeners.slice(at + 1)) {
      eventLog(record(`Listener "${skipped.name}" was not called for event "${eventName}".`, eventName, skipped.name));
    }
    return true;
  }

  /** The rest of an untraced dispatch, from the listener at `from` whose promise is `pending`. */
  async #finishUntraced(listeners: readonly Listener[], from: number, pending: Promise<void>, event: KernelEvent): Promise<KernelEvent> {
    await pending;
    if (event.propagationStopped) return event;
    for (let i = from + 1; i < listeners.length; i++) {
      const next = listeners[i].fn(event);
      if (next) await next;
      if (event.propagationStopped) break;
    }
    return event;
  }
}

type MarkedRecord = LogRecord & { [NOTIFIED_CALL]?: [number, number] };

function record(message: string, event: string, listener: string): LogRecord {
  return { time: Date.now(), level: 'DEBUG', channel: 'event', message, context: { event, listener } };
}
