import type { Request } from '../http/request.js';
import { RecordingTrace, type RequestTrace } from '../kernel/request-trace.js';
import type { RequestRecorder } from './request-scope.js';

/** One object per request, its methods shared: the recording scope holds it. */
class TraceRecorder implements RequestRecorder {
  readonly origin: number;
  /** the trace's listener calls so far: their count tells a listener's call, and the controller after them, apart */
  readonly #calls: readonly number[] | null;

  constructor(
    private readonly request: Request,
    private readonly trace: RequestTrace,
  ) {
    this.origin = request.start;
    this.#calls = trace instanceof RecordingTrace ? trace.calls : null;
  }

  step(): number {
    return this.#calls?.length ?? 0;
  }

  elapsed(): number {
    return this.request.elapsed();
  }

  add(collector: string, value: unknown): void {
    this.trace.addEntry(collector, value);
  }
}

/** The recorder of one profiled request: its records go to its trace, which hands them to the profiler. */
export function recorderFor(request: Request, trace: RequestTrace): RequestRecorder {
  return new TraceRecorder(request, trace);
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
