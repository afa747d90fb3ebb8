import { Response } from '../http/response.js';
import type { KernelEvent } from './kernel-event.js';

/** kernel.view: a string becomes an HTML response, anything else JSON; undefined stays unanswered. */
export function onKernelView(event: KernelEvent): void {
  const result = event.result;
  if (result === undefined) return;
  if (typeof result === 'string') event.setResponse(Response.html(result));
  else event.setResponse(Response.json(result));
}
