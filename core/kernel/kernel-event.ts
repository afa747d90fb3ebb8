import type { Request } from '../http/request.js';
import type { Response } from '../http/response.js';
import type { Controller } from '../app/controller.js';

/** One event object travels through every listener of one dispatch. */
export class KernelEvent {
  propagationStopped = false;
  response: Response | null = null;
  controller: Controller | null = null;
  controllerArguments: unknown[] = [];
  /** kernel.view: what the controller returned */
  result: unknown = undefined;
  /** kernel.exception: what was thrown (listeners may replace it) */
  error: unknown = undefined;

  constructor(readonly request: Request) {}

  stopPropagation(): void {
    this.propagationStopped = true;
  }

  /** Sets the response and stops propagation, as Symfony's setResponse() does for request/view/exception events. */
  setResponse(response: Response): void {
    this.response = response;
    this.stopPropagation();
  }
}
