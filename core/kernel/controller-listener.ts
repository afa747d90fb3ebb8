import type { ControllerContext, RecordingTools } from './controller.js';
import { AppError } from '../errors.js';
import type { KernelEvent } from './kernel-event.js';

export type GenerateUrl = (
  route: string,
  params: Record<string, string | number> | undefined,
  options: { absolute?: boolean } | undefined,
  baseUrl: string,
) => string;

/**
 * kernel.controller: refuses a controller that cannot be called, with the route's name.
 * kernel.controller_arguments: builds the controller's context from the matched route;
 * a later listener may decorate or replace it. Its stopwatch, dump() and record() are `tools`.
 */
export class ControllerListener {
  constructor(
    private readonly tools: RecordingTools,
    private readonly generateUrl?: GenerateUrl,
  ) {}

  readonly onKernelController = (event: KernelEvent): void => {
    if (typeof event.controller === 'function') return;
    const route = event.request.attributes.route ?? '(none)';
    throw new AppError(
      'APP_ERR_KERNEL_CONTROLLER',
      `The controller for route "${route}" is not a function (${event.controller === null ? 'null' : typeof event.controller} given).`,
    );
  };

  readonly onKernelControllerArguments = (event: KernelEvent): void => {
    const { request, trace } = event;
    const context: ControllerContext = {
      request,
      trace,
      params: request.attributes.params,
      log: request.logger,
      generate: (name, params, options) => {
        if (!this.generateUrl) throw new AppError('APP_ERR_ROUTING_UNKNOWN_ROUTE', 'URL generation is not configured.');
        return this.generateUrl(name, params, options, request.baseUrl);
      },
      stopwatch: this.tools.stopwatch(),
      dump: this.tools.dump,
      record: this.tools.record,
    };
    event.controllerArguments = [context];
  };
}
