import { AppError } from '../errors.js';
import type { ControllerStopwatch } from '../kernel/controller.js';
import { currentRecorder } from './request-scope.js';

export const STOPWATCH_COLLECTOR = 'stopwatch';

/** One named span of the app's own, in ms since the request started. */
export interface Span {
  name: string;
  start: number;
  /** null when it was never stopped */
  duration: number | null;
}

type Clock = () => number;
type Sink = (span: Span) => void;

/**
 * The app's own spans on the request's timeline: `start(name)`/`stop(name)` or `await measure(name, fn)`.
 * Spans may nest and overlap; one left running shows as unfinished.
 */
export class Stopwatch implements ControllerStopwatch {
  #open: Map<string, Span[]> | null = null;

  constructor(
    private readonly clock: Clock,
    private readonly sink: Sink,
  ) {}

  get #running(): Map<string, Span[]> {
    return (this.#open ??= new Map());
  }

  start(name: string): void {
    const span: Span = { name: spanName(name), start: this.clock(), duration: null };
    const open = this.#running.get(span.name);
    if (open) open.push(span);
    else this.#running.set(span.name, [span]);
    this.sink(span);
  }

  /** Stops the last span started under `name`; returns its duration in ms. */
  stop(name: string): number {
    const open = this.#running.get(spanName(name));
    const span = open?.pop();
    if (!span)
      throw new AppError(
        'APP_ERR_DEBUG_STOPWATCH',
        `The stopwatch span "${String(name)}" was stopped but never started.`,
      );
    if (open!.length === 0) this.#running.delete(span.name);
    span.duration = this.clock() - span.start;
    return span.duration;
  }

  /** Runs `fn` inside a span of its own, stopped whether `fn` returns or throws. */
  async measure<T>(name: string, fn: () => T | Promise<T>): Promise<T> {
    this.start(name);
    try {
      return await fn();
    } finally {
      this.stop(name);
    }
  }
}

function spanName(name: unknown): string {
  if (typeof name !== 'string' || name === '') {
    throw new AppError(
      'APP_ERR_DEBUG_STOPWATCH',
      `A stopwatch span needs a non-empty string name (${name === '' ? 'empty string' : typeof name} given).`,
    );
  }
  return name.length > 200 ? name.slice(0, 200) : name;
}

const scopeClock: Clock = () => currentRecorder()?.elapsed() ?? 0;
const scopeSink: Sink = (span) => currentRecorder()?.add(STOPWATCH_COLLECTOR, span);

/** A controller's stopwatch: its spans go to the request being recorded, if any (request-scope.ts); nowhere otherwise. */
export function requestStopwatch(): Stopwatch {
  return new Stopwatch(scopeClock, scopeSink);
}
