import type { Request } from '../http/request.js';
import type { RequestTrace } from '../kernel/request-trace.js';
import type { RequestRecorder } from './request-scope.js';

/** The recorder of one profiled request: its records go to its trace, which hands them to the profiler. */
export function recorderFor(request: Request, trace: RequestTrace): RequestRecorder {
  return {
    elapsed: () => request.elapsed(),
    add: (collector, value) => trace.addEntry(collector, value),
  };
}

const knownJson = new WeakMap<object, string>();

/** Serialises `value` now, once: an entry recorded by every request (the configuration) costs its JSON text only once. */
export function serialiseOnce<T extends object>(value: T): T {
  knownJson.set(value, JSON.stringify(value));
  return value;
}

/** The JSON text serialiseOnce() made of `value`, if it did. */
export function serialisedJson(value: unknown): string | undefined {
  return typeof value === 'object' && value !== null ? knownJson.get(value) : undefined;
}
