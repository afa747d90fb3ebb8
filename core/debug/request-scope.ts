import { AsyncLocalStorage } from 'node:async_hooks';

/** Where the code running for one request records what its panels show (outgoing calls, spans, dumps). */
export interface RequestRecorder {
  /** ms since the request started, on the clock of its phases */
  elapsed(): number;
  /** the request's start, a performance.now(): elapsed() is measured from it */
  readonly origin: number;
  /** one record for the collector named `collector`; kept by reference until the request is handed off */
  add(collector: string, value: unknown): void;
  /**
   * Which step of the request is running (a listener's call, the controller), as a number that changes
   * from one step to the next: a statement run again in another step has its stack taken again
   * (statement-runs.ts). Without it, the request is one step.
   */
  step?(): number;
}

const scope = new AsyncLocalStorage<RequestRecorder>();

/** The recorder of the request whose code is running, if any. */
export function currentRecorder(): RequestRecorder | undefined {
  return scope.getStore();
}

/**
 * Makes `recorder` (or none) the current one for the rest of this synchronous run and everything it
 * starts: called as the kernel begins each request, it covers its listeners, its controller and the
 * code they start. Requests on one keep-alive connection may share an async context: each one's
 * start replaces what the one before entered, a request not recorded included (null).
 */
export function enterRequestScope(recorder: RequestRecorder | null): void {
  scope.enterWith(recorder ?? (undefined as unknown as RequestRecorder));
}

/** Calls `fn` with the recorder of `recorder`'s request as the current one, for it and everything it starts. */
export function runInRequestScope<R>(
  recorder: RequestRecorder,
  fn: (...args: unknown[]) => R,
  thisArg: unknown,
  args: unknown[],
): R {
  return scope.run(recorder, Reflect.apply, fn, thisArg, args) as R;
}

/**
 * Runs the callbacks `channel` wraps (a TracingChannel's asyncStart) in the request `recorderOf` names
 * for their message: a driver's pool that hands a connection to a waiting caller later, from another
 * request's code, then still records into the caller's request.
 */
export function bindRequestScope(
  channel: {
    bindStore(store: AsyncLocalStorage<RequestRecorder>, transform: (message: unknown) => RequestRecorder): void;
  },
  recorderOf: (message: unknown) => RequestRecorder | undefined,
): void {
  channel.bindStore(scope, (message) => recorderOf(message) as RequestRecorder);
}

/** Undoes bindRequestScope. */
export function unbindRequestScope(channel: { unbindStore(store: AsyncLocalStorage<RequestRecorder>): boolean }): void {
  channel.unbindStore(scope);
}
