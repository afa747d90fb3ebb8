import type { Request } from '../http/request.js';
import type { Response } from '../http/response.js';
import type { Controller } from './controller.js';
import type { RequestTrace } from './request-trace.js';

/** One event object travels through every listener of one dispatch, with the request and its trace. */
export class KernelEvent {
  propagationStopped = false;
  response: Response | null = null;
  controller: Controller | null = null;
  controllerArguments: unknown[] = [];
  /** kernel.view: what the controller returned */
  result: unknown = undefined;
  /** kernel.exception: what was thrown (listeners may replace it) */
  error: unknown = undefined;
  /** kernel.request: the error a listener ended the request with, see fail() */
  failure: Error | null = null;

  constructor(
    readonly request: Request,
    readonly trace: RequestTrace,
  ) {}

  stopPropagation(): void {
    this.propagationStopped = true;
  }

  /**
   * Ends the request with `error` as if the listener had thrown it, without the cost of a throw
   * (V8 also never optimises a function that always throws). Only kernel.request honours it.
   */
  fail(error: Error): void {
    this.failure = error;
    this.stopPropagation();
  }

  /** Sets the response and stops propagation, as Symfony's setResponse() does for request/view/exception events. */
  setResponse(response: Response): void {
    this.response = response;
    this.stopPropagation();
  }
}
