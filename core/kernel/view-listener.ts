import { Response } from '../http/response.js';
import type { KernelEvent } from './kernel-event.js';

/**
 * kernel.view: a string becomes an HTML response, anything else JSON. A result with no JSON form
 * (undefined, a function, a symbol) stays unanswered: the kernel reports it as the controller's error.
 */
export function onKernelView(event: KernelEvent): void {
  const result = event.result;
  if (typeof result === 'string') event.setResponse(Response.html(result));
  else if (result !== undefined && typeof result !== 'function' && typeof result !== 'symbol')
    event.setResponse(asJson(result, event.request.attributes.route));
}

/** JSON.stringify's own errors (a BigInt, a cycle) name no route: the controller that returned the value is named. */
function asJson(result: unknown, route: string | null): Response {
  try {
    return Response.json(result);
  } catch (error) {
    throw new TypeError(
      `The controller for route "${route}" returned a value JSON cannot encode: ${(error as Error)?.message ?? String(error)}`,
      { cause: error },
    );
  }
}

/** How the kernel's message names a controller result that no kernel.view listener answered. */
export function describeResult(result: unknown): string {
  if (result === undefined) return 'undefined';
  if (typeof result === 'function') return `a function${result.name ? ` (${result.name})` : ''}`;
  if (typeof result === 'symbol') return 'a symbol';
  return `a ${result === null ? 'null' : typeof result} value`;
}
