import type { LogRecord } from '../profiler/profile.js';
import type { KernelEvent } from './kernel-event.js';

export type ListenerFn = (event: KernelEvent) => void | Promise<void>;

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
   * The event once every listener ran. Outside debug it comes back synchronously when no
   * listener returns a promise: a request would otherwise pay a promise per event.
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

  async #dispatchTraced(eventName: string, event: KernelEvent): Promise<KernelEvent> {
    const request = event.request;
    const calls: { listener: string; duration: number; stoppedPropagation: boolean }[] = [];
    request.events.push({ name: eventName, listeners: calls });
    const eventLog = request.log.sink;
    const listeners = this.#listeners.get(eventName) ?? [];
    for (let i = 0; i < listeners.length; i++) {
      const listener = listeners[i];
      const call = { listener: listener.name, duration: 0, stoppedPropagation: false };
      calls.push(call);
      const start = performance.now();
      try {
        const pending = listener.fn(event);
        if (pending) await pending;
      } finally {
        call.duration = performance.now() - start;
      }
      // Logged after the call, as Symfony's traceable dispatcher does: a listener's own records come first.
      eventLog(record(`Notified event "${eventName}" to listener "${listener.name}".`, eventName, listener.name));
      if (event.propagationStopped) {
        call.stoppedPropagation = true;
        eventLog(record(`Listener "${listener.name}" stopped propagation of the event "${eventName}".`, eventName, listener.name));
        for (const skipped of listeners.slice(i + 1)) {
          eventLog(record(`Listener "${skipped.name}" was not called for event "${eventName}".`, eventName, skipped.name));
        }
        break;
      }
    }
    return event;
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
