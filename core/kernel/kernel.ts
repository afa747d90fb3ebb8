import type { Controller, ControllerContext } from './controller.js';
import { AppError, HttpError } from '../errors.js';
import { Readable } from 'node:stream';
import type { Request } from '../http/request.js';
import { Response } from '../http/response.js';
import { EventDispatcher } from './event-dispatcher.js';
import { KernelEvent } from './kernel-event.js';
import { KernelEvents } from './kernel-events.js';
import { catchMaybe, finallyMaybe, thenMaybe, type MaybePromise } from '../maybe-promise.js';
import { NO_TRACE, Phases, RecordingTrace, type RequestTrace } from './request-trace.js';
import { describeResult } from './view-listener.js';

export interface KernelOptions {
  debug: boolean;
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
    return Promise.resolve(this.respond(request));
  }

  /**
   * As handle(), but the Response itself when no listener and no controller returned a promise:
   * a caller that writes it at once saves the request a promise and a turn of the microtask queue
   * per step. Never throws, and a promise it returns never rejects.
   */
  respond(request: Request): MaybePromise<Response> {
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

  /**
   * kernel.terminate, after the response was written to the socket. Never rejects; when every
   * listener returned at once, the promise is one resolved already (no promise made per request).
   */
  terminate(request: Request, response: Response): Promise<void> {
    const event = new KernelEvent(request, this.#traces.of(request));
    event.response = response;
    let dispatched: MaybePromise<KernelEvent>;
    try {
      dispatched = this.dispatcher.dispatch(KernelEvents.TERMINATE, event);
    } catch (error) {
      terminateFailed(request, error);
      return TERMINATED;
    }
    return dispatched instanceof Promise
      ? dispatched.then(
          () => undefined,
          (error: unknown) => terminateFailed(request, error),
        )
      : TERMINATED;
  }

  /**
   * Anything thrown becomes an error response here, synchronously or, from the first listener or
   * controller that returns a promise on, through the one rejection handler below. Each step goes
   * on to the next at once when it was synchronous (an await would cost a microtask turn): a
   * request none of whose code waits is answered without a promise. The steps from kernel.request
   * to the controller are arrows made once per kernel, handed to thenMaybe as they are: a request
   * makes no function for them, and a stack through them names each one.
   */
  private handleRaw(request: Request, trace: RequestTrace): MaybePromise<Response> {
    let response: MaybePromise<Response>;
    const event = new KernelEvent(request, trace);
    try {
      for (const hook of this.beforeHandle) hook(request, trace);
      response = thenMaybe(this.dispatcher.dispatch(KernelEvents.REQUEST, event), this.routed);
    } catch (error) {
      return this.handleThrowable(error, request, trace);
    }
    return catchMaybe(response, this.failed, event);
  }

  private readonly failed = (error: unknown, event: KernelEvent): MaybePromise<Response> =>
    this.handleThrowable(error, event.request, event.trace);

  /** After kernel.request: its answer or failure, else the controller. `synchronous`: kernel.request returned at once. */
  private readonly routed = (event: KernelEvent, synchronous: boolean): MaybePromise<Response> => {
    const { request, trace } = event;
    if (event.failure !== null) return this.handleThrowable(event.failure, request, trace);
    if (event.response) return this.filterResponse(event.response, request, trace);
    event.controller = this.controllerOf(request);
    // An event dispatched right after one that returned synchronously starts at its last reading.
    return thenMaybe(
      this.dispatcher.dispatch(KernelEvents.CONTROLLER, event, synchronous ? trace.latest() : undefined),
      this.resolved,
    );
  };

  private readonly resolved = (event: KernelEvent, synchronous: boolean): MaybePromise<Response> =>
    thenMaybe(
      this.dispatcher.dispatch(
        KernelEvents.CONTROLLER_ARGUMENTS,
        event,
        synchronous ? event.trace.latest() : undefined,
      ),
      this.argued,
    );

  /** The matched route's controller, or an error naming the route. */
  private controllerOf(request: Request): Controller {
    const route = request.attributes.route;
    const controller = route === null ? undefined : this.options.resolveController(route);
    if (!controller) {
      throw new AppError(
        'APP_ERR_KERNEL_CONTROLLER',
        `Unable to find the controller for path "${request.path}". The route "${route ?? '(none)'}" is wrongly configured.`,
      );
    }
    return controller;
  }

  /** A kernel.controller listener may have replaced the route's controller, not removed it. */
  private readonly argued = (event: KernelEvent): MaybePromise<Response> => {
    const { request, trace } = event;
    const context = event.controllerArguments[0] as ControllerContext | undefined;
    if (!context)
      throw new AppError(
        'APP_ERR_KERNEL_CONTROLLER',
        `No arguments were resolved for the controller of route "${request.attributes.route}".`,
      );
    // The controller starts where the arguments' last listener ended.
    const started = trace.latest();
    let result: unknown;
    try {
      result = this.callController(event.controller ?? this.controllerOf(request), context, request);
    } catch (error) {
      trace.phase(Phases.controller, started);
      throw error;
    }
    if (isThenable(result)) return this.awaitController(result, started, request, trace);
    trace.phase(Phases.controller, started);
    return this.controlled(result, request, trace);
  };

  private async awaitController(
    pending: PromiseLike<unknown>,
    started: number,
    request: Request,
    trace: RequestTrace,
  ): Promise<Response> {
    let result: unknown;
    try {
      result = await pending;
    } finally {
      trace.phase(Phases.controller, started);
    }
    return this.controlled(result, request, trace);
  }

  /** The controller's result: a Response, or a value kernel.view turns into one. */
  private controlled(result: unknown, request: Request, trace: RequestTrace): MaybePromise<Response> {
    if (result instanceof Response) {
      if (result.body instanceof Readable) {
        // Until the adapter pipes it, a failing body must not be an uncaught 'error' event; the adapter reports it.
        result.body.on('error', ignoreUntilPiped);
        // One that failed already (destroyed, pushed to after its end) is the controller's error.
        if (result.body.errored) throw result.body.errored;
      }
      return this.filterResponse(result, request, trace);
    }
    const view = new KernelEvent(request, trace);
    view.result = result;
    const viewing = trace.now();
    const end = () => trace.phase(Phases.view, viewing, trace.latest());
    let viewed: MaybePromise<KernelEvent>;
    try {
      viewed = this.dispatcher.dispatch(KernelEvents.VIEW, view, viewing);
    } catch (error) {
      end();
      throw error;
    }
    return thenMaybe(finallyMaybe(viewed, end), this.viewed);
  }

  private readonly viewed = (view: KernelEvent): MaybePromise<Response> => {
    if (!view.response) {
      throw new AppError(
        'APP_ERR_KERNEL_CONTROLLER',
        `The controller for route "${view.request.attributes.route}" must return a response, a string or a value to send as JSON (${describeResult(view.result)} returned).`,
      );
    }
    return this.filterResponse(view.response, view.request, view.trace);
  };

  /** A sync result is returned as it is; only a pending promise gets the request timeout (a 504). */
  private callController(controller: Controller, context: ControllerContext, request: Request): unknown {
    const result = controller(context);
    if (!(result instanceof Promise)) return result;
    const timeoutMs = this.options.requestTimeoutMs ?? 30_000;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () =>
          reject(
            new HttpError(
              504,
              `The controller for route "${request.attributes.route}" did not answer within ${timeoutMs} ms.`,
            ),
          ),
        timeoutMs,
      );
      timer.unref();
      result.then(resolve, reject).finally(() => clearTimeout(timer));
    });
  }

  /** kernel.exception, then kernel.response; never throws, and the promise it may return never rejects. */
  private handleThrowable(error: unknown, request: Request, trace: RequestTrace): MaybePromise<Response> {
    const event = new KernelEvent(request, trace);
    event.error = error;
    const start = trace.now();
    const listenerFailed = (listenerError: unknown): KernelEvent => {
      exceptionListenerFailed(request, listenerError);
      return event;
    };
    let dispatched: MaybePromise<KernelEvent>;
    try {
      dispatched = catchMaybe(this.dispatcher.dispatch(KernelEvents.EXCEPTION, event), listenerFailed);
    } catch (listenerError) {
      dispatched = listenerFailed(listenerError);
    }
    const answer = () => this.answerThrowable(event, start);
    return thenMaybe(dispatched, answer);
  }

  private answerThrowable(event: KernelEvent, start: number): MaybePromise<Response> {
    const { request, trace } = event;
    trace.phase(Phases.exception, start);
    const response = event.response ?? Response.text('Internal Server Error', 500);
    let filtered: MaybePromise<Response>;
    try {
      filtered = this.filterResponse(response, request, trace);
    } catch (responseError) {
      return responseListenerFailed(request, responseError, response);
    }
    const failed = (responseError: unknown) => responseListenerFailed(request, responseError, response);
    return catchMaybe(filtered, failed);
  }

  /** kernel.response, then kernel.finish_request. */
  private filterResponse(response: Response, request: Request, trace: RequestTrace): MaybePromise<Response> {
    // Untraced, two events nobody listens to change nothing: the request is spared their events and dispatches.
    if (
      trace === NO_TRACE &&
      !this.dispatcher.hasListeners(KernelEvents.RESPONSE) &&
      !this.dispatcher.hasListeners(KernelEvents.FINISH_REQUEST)
    )
      return response;
    const event = new KernelEvent(request, trace);
    event.response = response;
    const start = trace.now();
    // The phase ends with its last listener call (or, with none, where it started).
    const end = () => trace.phase(Phases.response, start, trace.latest());
    let finished: MaybePromise<Response>;
    try {
      const finish = () => this.finishRequest(event, response);
      finished = thenMaybe(this.dispatcher.dispatch(KernelEvents.RESPONSE, event, start), finish);
    } catch (error) {
      end();
      throw error;
    }
    return finallyMaybe(finished, end);
  }

  private finishRequest(event: KernelEvent, response: Response): MaybePromise<Response> {
    const finish = new KernelEvent(event.request, event.trace);
    const answered = () => event.response ?? response;
    return thenMaybe(this.dispatcher.dispatch(KernelEvents.FINISH_REQUEST, finish), answered);
  }
}

function exceptionListenerFailed(request: Request, error: unknown): void {
  request.logger
    .withChannel('request')
    .critical('A kernel.exception listener failed: {message}', { message: String((error as Error)?.message ?? error) });
}

function responseListenerFailed(request: Request, error: unknown, response: Response): Response {
  request.logger
    .withChannel('request')
    .critical('A kernel.response listener failed: {message}', { message: String((error as Error)?.message ?? error) });
  return response;
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
  return (
    value !== null &&
    (typeof value === 'object' || typeof value === 'function') &&
    typeof (value as PromiseLike<unknown>).then === 'function'
  );
}

const TERMINATED: Promise<void> = Promise.resolve();

function terminateFailed(request: Request, error: unknown): void {
  request.logger
    .withChannel('request')
    .error('A kernel.terminate listener failed: {message}', { message: String((error as Error)?.message ?? error) });
}
