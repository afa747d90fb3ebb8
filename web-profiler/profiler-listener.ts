import type { KernelEvent } from '../core/kernel/kernel-event.js';
import { injectToolbar, renderToolbar } from './views/toolbar.js';
import { DURATION_KEY } from '../core/profiler/build-profile.js';
import type { ProfileHandoff } from '../core/profiler/handoff/profile-handoff.js';
import { applyProfilerSecurityHeaders } from './security-headers.js';
import { TOOLBAR_ITEMS_KEY } from './recording-listener.js';

/**
 * kernel.response: the debug token headers, the toolbar for HTML pages, and the
 * profiler's own security headers on every answer under /_profiler (run after
 * the debug headers, so `no-store` replaces their `no-cache`).
 * kernel.terminate: what the request recorded, handed to the profiler worker
 * once the response was sent (the profile is built there).
 */
export class ProfilerListener {
  /** `routes`: the id of the kernel's route table in the hand-off; `atResponse`: what else a profiled response records first */
  constructor(private readonly handoff: ProfileHandoff, private readonly routes: number, private readonly atResponse?: (event: KernelEvent) => void) {}

  readonly onKernelResponse = (event: KernelEvent): void => {
    const { request, response } = event;
    if (!response) return;
    applyProfilerSecurityHeaders(request, response);
    if (!request.token) return;
    this.atResponse?.(event);
    response.setHeader('X-Debug-Token', request.token);
    response.setHeader('X-Debug-Token-Link', `${request.baseUrl}/_profiler/${request.token}`);
    if (response.isHtml() && !response.isRedirect() && typeof response.body === 'string' && request.method !== 'HEAD') {
      response.body = injectToolbar(response.body, renderToolbar({
        token: request.token,
        status: response.status,
        route: request.attributes.route,
        duration: request.elapsed(),
        logErrors: request.log.errors,
        logWarnings: request.log.warnings,
        method: request.method,
        items: request.extra.get(TOOLBAR_ITEMS_KEY) as string[] | undefined,
      }));
      response.setHeader('Content-Length', String(Buffer.byteLength(response.body)));
    }
    request.extra.set(DURATION_KEY, request.elapsed());
  };

  readonly onKernelTerminate = (event: KernelEvent): void => {
    const { request, response } = event;
    if (!response || !request.token) return;
    this.handoff.submit(request, response, this.routes);
  };
}
