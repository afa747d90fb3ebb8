import type { LogRecord } from '../profiler/profile.js';
import type { KernelEvent } from './kernel-event.js';

export type ListenerFn = (event: KernelEvent) => void | Promise<void>;

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
    list.push({ name, fn, priority });
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
    event.request.events.push({ name: eventName, listeners: calls });
    const listeners = this.#listeners.get(eventName) ?? [];
    return this.#traceFrom(eventName, event, listeners, 0, calls);
  }

  /** Calls the listeners from `from` on, timing and logging each; async only from a listener that returns a promise. */
  #traceFrom(eventName: string, event: KernelEvent, listeners: readonly Listener[], from: number, calls: ListenerCall[]): KernelEvent | Promise<KernelEvent> {
    for (let i = from; i < listeners.length; i++) {
      const listener = listeners[i];
      const call: ListenerCall = { listener: listener.name, duration: 0, stoppedPropagation: false };
      calls.push(call);
      const start = performance.now();
      let pending: void | Promise<void>;
      try {
        pending = listener.fn(event);
      } finally {
        call.duration = performance.now() - start;
      }
      if (pending) return this.#awaitTraced(eventName, event, listeners, i, calls, call, start, pending);
      if (this.#afterTraced(eventName, event, listeners, i, call)) break;
    }
    return event;
  }

  async #awaitTraced(eventName: string, event: KernelEvent, listeners: readonly Listener[], at: number, calls: ListenerCall[],
    call: ListenerCall, start: number, pending: Promise<void>): Promise<KernelEvent> {
    try {
      await pending;
    } finally {
      call.duration = performance.now() - start;
    }
    if (this.#afterTraced(eventName, event, listeners, at, call)) return event;
    return this.#traceFrom(eventName, event, listeners, at + 1, calls);
  }

  /** Logs the call of listeners[at], after it ran as Symfony's traceable dispatcher does; true when it stopped propagation. */
  #afterTraced(eventName: string, event: KernelEvent, listeners: readonly Listener[], at: number, call: ListenerCall): boolean {
    const eventLog = event.request.log.sink;
    const name = listeners[at].name;
    eventLog(record(`Notified event "${eventName}" to listener "${name}".`, eventName, name));
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

function record(message: string, event: string, listener: string): LogRecord {
  return { time: Date.now(), level: 'DEBUG', channel: 'event', message, context: { event, listener } };
}
