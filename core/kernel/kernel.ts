import type { Controller, ControllerContext } from '../app/controller.js';
import { AppError, HttpError } from '../errors.js';
import { Readable } from 'node:stream';
import type { Request } from '../http/request.js';
import { Response } from '../http/response.js';
import { EventDispatcher } from './event-dispatcher.js';
import { KernelEvent } from './kernel-event.js';
import { KernelEvents } from './kernel-events.js';
import { NO_TRACE, Phases, RecordingTrace, type RequestTrace } from './request-trace.js';
import { describeResult } from './view-listener.js';

export interface KernelOptions {
  debug: boolean;
  /** the app's root folder: file paths in traces are shown relative to it */
  root: string;
  /** a controller still pending after this many ms is answered 504 */
  requestTimeoutMs?: number;
  /** the controller of a matched route */
  resolveController: (route: string) => Controller | undefined;
}

/**
 * Turns a Request into a Response through the kernel events, in the order
 * ARCHITECTURE.md gives. handle() never rejects: anything thrown,
 * by a controller or a listener, becomes an error response.
 */
export class Kernel {
  readonly dispatcher = new EventDispatcher();
  /** called first for every request, before any event (the profiler assigns its token here) */
  readonly beforeHandle: ((request: Request, trace: RequestTrace) => void)[] = [];
  readonly #traces: Traces;

  constructor(readonly options: KernelOptions) {
    this.#traces = options.debug ? new RecordedTraces() : NO_TRACES;
  }

  handle(request: Request): Promise<Response> {
    return this.handleRaw(request, this.#traces.begin(request));
  }

  /** The trace of a request this kernel handled (NO_TRACE outside debug, or for a request it never saw). */
  traceOf(request: Request): RequestTrace {
    return this.#traces.of(request);
  }

  /** Whether terminate() calls anyone: outside debug, usually not. */
  terminates(): boolean {
    return this.dispatcher.listeners(KernelEvents.TERMINATE).length > 0;
  }

  /** kernel.terminate, after the response was written to the socket. */
  async terminate(request: Request, response: Response): Promise<void> {
    const event = new KernelEvent(request, this.#traces.of(request));
    event.response = response;
    try {
      await this.dispatcher.dispatch(KernelEvents.TERMINATE, event);
    } catch (error) {
      request.logger.withChannel('request').error('A kernel.terminate listener failed: {message}', { message: String((error as Error)?.message ?? error) });
    }
  }

  /**
   * Anything thrown becomes an error response here. The events run inside this function's own
   * try: a throw from an async function called here would reject its promise before anyone
   * awaited it, and every error response would pay Node's unhandled-rejection bookkeeping.
   */
  private async handleRaw(request: Request, trace: RequestTrace): Promise<Response> {
    try {
      for (const hook of this.beforeHandle) hook(request, trace);
      // A dispatch gives the event back when no listener waited: awaited only otherwise, as each
      // await costs a turn of the microtask queue.
      const event = new KernelEvent(request, trace);
      const requested = this.dispatcher.dispatch(KernelEvents.REQUEST, event);
      if (requested !== event) await requested;
      if (event.failure !== null) return await this.handleThrowable(event.failure, request, trace);
      if (event.response) return await this.filterResponse(event.response, request, trace);

      const route = request.attributes.route;
      const controller = route === null ? undefined : this.options.resolveController(route);
      if (!controller) {
        throw new AppError('APP_ERR_KERNEL_CONTROLLER',
          `Unable to find the controller for path "${request.path}". The route "${route ?? '(none)'}" is wrongly configured.`);
      }
      event.controller = controller;
      // An event dispatched right after one that returned synchronously starts at its last reading.
      const resolved = this.dispatcher.dispatch(KernelEvents.CONTROLLER, event, requested === event ? trace.latest() : undefined);
      if (resolved !== event) await resolved;
      const argued = this.dispatcher.dispatch(KernelEvents.CONTROLLER_ARGUMENTS, event, resolved === event ? trace.latest() : undefined);
      if (argued !== event) await argued;

      const context = event.controllerArguments[0] as ControllerContext | undefined;
      if (!context) throw new AppError('APP_ERR_KERNEL_CONTROLLER', `No arguments were resolved for the controller of route "${route}".`);
      // The controller starts where the arguments' last listener ended.
      const started = trace.latest();
      let result: unknown;
      try {
        result = this.callController(event.controller ?? controller, context, request);
        if (isThenable(result)) result = await result;
      } finally {
        trace.phase(Phases.controller, started);
      }
      if (result instanceof Response) {
        if (result.body instanceof Readable) {
          // Until the adapter pipes it, a failing body must not be an uncaught 'error' event; the adapter reports it.
          result.body.on('error', ignoreUntilPiped);
          // One that failed already (destroyed, pushed to after its end) is the controller's error.
          if (result.body.errored) throw result.body.errored;
        }
        return await this.filterResponse(result, request, trace);
      }

      const view = new KernelEvent(request, trace);
      view.result = result;
      const viewing = trace.now();
      try {
        const viewed = this.dispatcher.dispatch(KernelEvents.VIEW, view, viewing);
        if (viewed !== view) await viewed;
      } finally {
        trace.phase(Phases.view, viewing, trace.latest());
      }
      if (!view.response) {
        throw new AppError('APP_ERR_KERNEL_CONTROLLER',
          `The controller for route "${route}" must return a response, a string or a value to send as JSON (${describeResult(result)} returned).`);
      }
      return await this.filterResponse(view.response, request, trace);
    } catch (error) {
      return this.handleThrowable(error, request, trace);
    }
  }

  /** A sync result is returned as it is; only a pending promise gets the request timeout (a 504). */
  private callController(controller: Controller, context: ControllerContext, request: Request): unknown {
    const result = controller(context);
    if (!(result instanceof Promise)) return result;
    const timeoutMs = this.options.requestTimeoutMs ?? 30_000;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new HttpError(504,
        `The controller for route "${request.attributes.route}" did not answer within ${timeoutMs} ms.`)), timeoutMs);
      timer.unref();
      result.then(resolve, reject).finally(() => clearTimeout(timer));
    });
  }

  private async handleThrowable(error: unknown, request: Request, trace: RequestTrace): Promise<Response> {
    const event = new KernelEvent(request, trace);
    event.error = error;
    const start = trace.now();
    try {
      await this.dispatcher.dispatch(KernelEvents.EXCEPTION, event);
    } catch (listenerError) {
      request.logger.withChannel('request').critical('A kernel.exception listener failed: {message}', { message: String((listenerError as Error)?.message ?? listenerError) });
    }
    trace.phase(Phases.exception, start);
    const response = event.response ?? Response.text('Internal Server Error', 500);
    try {
      return await this.filterResponse(response, request, trace);
    } catch (responseError) {
      request.logger.withChannel('request').critical('A kernel.response listener failed: {message}', { message: String((responseError as Error)?.message ?? responseError) });
      return response;
    }
  }

  private async filterResponse(response: Response, request: Request, trace: RequestTrace): Promise<Response> {
    const event = new KernelEvent(request, trace);
    event.response = response;
    const start = trace.now();
    try {
      const responded = this.dispatcher.dispatch(KernelEvents.RESPONSE, event, start);
      if (responded !== event) await responded;
      const finish = new KernelEvent(request, trace);
      const finished = this.dispatcher.dispatch(KernelEvents.FINISH_REQUEST, finish);
      if (finished !== finish) await finished;
    } finally {
      // The phase ends with its last listener call (or, with none, where it started).
      trace.phase(Phases.response, start, trace.latest());
    }
    return event.response ?? response;
  }
}

/** Where a kernel keeps its requests' traces: a recording one each in debug, NO_TRACE for all otherwise. */
interface Traces {
  begin(request: Request): RequestTrace;
  of(request: Request): RequestTrace;
}

/** Each request's trace is kept on the request itself (a field, cheaper than a map), marked with the kernel that made it. */
class RecordedTraces implements Traces {
  begin(request: Request): RequestTrace {
    const trace = new RecordingTrace(request.start, request.log.sink);
    trace.owner = this;
    request.traceSlot = trace;
    return trace;
  }

  of(request: Request): RequestTrace {
    const trace = request.traceSlot;
    return trace instanceof RecordingTrace && trace.owner === this ? trace : NO_TRACE;
  }
}

const NO_TRACES: Traces = { begin: () => NO_TRACE, of: () => NO_TRACE };

function ignoreUntilPiped(): void {}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return value !== null && (typeof value === 'object' || typeof value === 'function') && typeof (value as PromiseLike<unknown>).then === 'function';
}
