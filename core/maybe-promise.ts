/** What a step of the kernel returns: its value at once, or a promise when some code it ran waited. */
export type MaybePromise<T> = T | Promise<T>;

/*
 * The kernel's sync fast path in one place (Fastify's lib/wrapThenable.js is the model): each helper
 * goes on at once with a value that is no promise, so a request none of whose code waits is
 * answered without a promise made or a microtask turn taken.
 */

/** `next(value, true)` now, or `next(resolved, false)` once the promise resolves; a rejection passes through. */
export function thenMaybe<T, R>(
  value: MaybePromise<T>,
  next: (value: T, synchronous: boolean) => MaybePromise<R>,
): MaybePromise<R> {
  if (!(value instanceof Promise)) return next(value, true);
  const resumed = (resolved: T) => next(resolved, false);
  return value.then(resumed);
}

/**
 * The value itself, or the promise with `onRejected(error, context)` answering its rejection: a
 * handler made once and a `context` spare a caller on the sync path a function made per call.
 */
export function catchMaybe<T, C = undefined>(
  value: MaybePromise<T>,
  onRejected: (error: unknown, context: C) => MaybePromise<T>,
  context?: C,
): MaybePromise<T> {
  if (!(value instanceof Promise)) return value;
  const rejected = (error: unknown) => onRejected(error, context as C);
  return value.catch(rejected);
}

/** `after()` now and the value itself, or the promise with `after()` run once it settles, either way. */
export function finallyMaybe<T>(value: MaybePromise<T>, after: () => void): MaybePromise<T> {
  if (value instanceof Promise) return value.finally(after);
  after();
  return value;
}
