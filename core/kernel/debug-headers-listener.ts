import type { KernelEvent } from './kernel-event.js';

/** kernel.response in debug mode: no caching, no indexing. */
export function onKernelResponseDebugHeaders(event: KernelEvent): void {
  const response = event.response;
  if (!response) return;
  if (response.header('cache-control') === undefined) response.setHeader('Cache-Control', 'no-cache, private');
  response.setHeader('X-Robots-Tag', 'noindex');
}
