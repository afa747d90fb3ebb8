import { AsyncLocalStorage } from 'node:async_hooks';

/** Where the code running for one request records what its panels show (outgoing calls, spans, dumps). */
export interface RequestRecorder {
  /** ms since the request started, on the clock of its phases */
  elapsed(): number;
  /** one record for the collector named `collector`; kept by reference until the request is handed off */
  add(collector: string, value: unknown): void;
}

const scope = new AsyncLocalStorage<RequestRecorder>();

/** Runs `fn` (a controller) so that everything it starts, synchronously or not, records into `recorder`. */
export function runInRequestScope<T>(recorder: RequestRecorder, fn: () => T): T {
  return scope.run(recorder, fn);
}

/** The recorder of the request whose code is running, if any. */
export function currentRecorder(): RequestRecorder | undefined {
  return scope.getStore();
}
