import type { KernelEvent } from './kernel-event.js';
import { traceNameId, type TracedListener } from './request-trace.js';

export type ListenerFn = (event: KernelEvent) => void | Promise<void>;

export function notifiedMessage(eventName: string, listener: string): string {
  return `Notified event "${eventName}" to listener "${listener}".`;
}

export interface Listener extends TracedListener {
  /** shown in the log and the events panel, e.g. "RouterListener::onKernelRequest" */
  readonly name: string;
  readonly fn: ListenerFn;
  readonly priority: number;
}

/** An event's listeners, by descending priority, and the id its trace records it under. */
interface EventListeners {
  readonly id: number;
  readonly listeners: Listener[];
}

/**
 * Calls listeners by descending priority (ties: registration order). Each call is recorded by the
 * event's trace (request-trace.ts): timed, and logged on the request's `event` channel, for the
 * events panel; the no-op trace of `--no-debug` records nothing, as Symfony's dispatcher outside debug.
 * A listener that throws stops the dispatch; the error reaches the caller.
 */
export class EventDispatcher {
  readonly #events = new Map<string, EventListeners>();

  addListener(event: string, name: string, fn: ListenerFn, priority = 0): this {
    const list = this.#entry(event).listeners;
    list.push({
      name,
      id: traceNameId(name),
      fn,
      priority,
      notified: { message: notifiedMessage(event, name), context: Object.freeze({ event, listener: name }) },
    });
    list.sort((a, b) => b.priority - a.priority);
    return this;
  }

  listeners(event: string): readonly Listener[] {
    return this.#events.get(event)?.listeners ?? [];
  }

  /** Whether anyone listens to `event` (no list made). */
  hasListeners(event: string): boolean {
    const entry = this.#events.get(event);
    return entry !== undefined && entry.listeners.length > 0;
  }

  /**
   * The event once every listener ran. It comes back synchronously when no listener returns a
   * promise: a request would otherwise pay a promise per event. `start`: a clock reading the
   * caller took just before (trace.now()), the first call's start; by default the trace reads it.
   */
  dispatch(eventName: string, event: KernelEvent, start?: number): KernelEvent | Promise<KernelEvent> {
    const entry = this.#events.get(eventName) ?? this.#entry(eventName);
    const at = event.trace.dispatched(entry.id);
    return this.#callFrom(eventName, at, entry.listeners, 0, event, start);
  }

  #entry(event: string): EventListeners {
    let entry = this.#events.get(event);
    if (!entry) this.#events.set(event, (entry = { id: traceNameId(event), listeners: [] }));
    return entry;
  }

  /**
   * Calls the listeners from `from` on; async only from a listener that returns a promise. A call
   * starts where the one before it ended: one clock reading per boundary between two listeners.
   */
  #callFrom(
    eventName: string,
    at: number,
    listeners: readonly Listener[],
    from: number,
    event: KernelEvent,
    start?: number,
  ): KernelEvent | Promise<KernelEvent> {
    const trace = event.trace;
    for (let i = from; i < listeners.length; i++) {
      const listener = listeners[i];
      const call = trace.calling(at, listener, start);
      let pending: void | Promise<void>;
      try {
        pending = listener.fn(event);
      } catch (error) {
        trace.failed(call);
        throw error;
      }
      if (pending) return this.#await(eventName, at, listeners, i, call, pending, event);
      start = trace.called(call, listener);
      if (event.propagationStopped) {
        trace.stopped(eventName, listeners, i);
        break;
      }
    }
    return event;
  }

  async #await(
    eventName: string,
    at: number,
    listeners: readonly Listener[],
    i: number,
    call: number,
    pending: Promise<void>,
    event: KernelEvent,
  ): Promise<KernelEvent> {
    const trace = event.trace;
    try {
      await pending;
    } catch (error) {
      trace.failed(call);
      throw error;
    }
    const end = trace.called(call, listeners[i]);
    if (event.propagationStopped) {
      trace.stopped(eventName, listeners, i);
      return event;
    }
    return this.#callFrom(eventName, at, listeners, i + 1, event, end);
  }
}
