import type { KernelEvent } from '../core/kernel/kernel-event.js';
import { injectToolbar, renderToolbar } from './views/toolbar.js';
import { toolbarSummary } from './toolbar-summary.js';
import type { ProfileHandoff } from '../core/profiler/handoff/profile-handoff.js';
import { applyProfilerSecurityHeaders, isProfilerPath } from './security-headers.js';

/**
 * kernel.response: the debug token headers, the toolbar for the app's HTML pages, and the
 * profiler's own security headers on every answer under /_profiler (run after
 * the debug headers, so `no-store` replaces their `no-cache`).
 * kernel.terminate: what the request recorded, handed to the profiler worker
 * once the response was sent (the profile is built there).
 */
export class ProfilerListener {
  /** `routes`: the id of the kernel's route table in the hand-off; `atResponse`: what else a profiled response records first */
  constructor(private readonly handoff: ProfileHandoff, private readonly routes: number, private readonly atResponse?: (event: KernelEvent) => void) {}

  readonly onKernelResponse = (event: KernelEvent): void => {
    const { request, response, trace } = event;
    if (!response) return;
    applyProfilerSecurityHeaders(request, response);
    const token = trace.token;
    if (!token) return;
    this.atResponse?.(event);
    response.setHeader('X-Debug-Token', token);
    response.setHeader('X-Debug-Token-Link', `${request.baseUrl}/_profiler/${token}`);
    if (response.isHtml() && !response.isRedirect() && typeof response.body === 'string' && request.method !== 'HEAD' && !isProfilerPath(request.path)) {
      response.body = injectToolbar(response.body, renderToolbar(toolbarSummary(request, response, trace, token)));
      response.setHeader('Content-Length', String(Buffer.byteLength(response.body)));
    }
    trace.responded(request.elapsed());
  };

  readonly onKernelTerminate = (event: KernelEvent): void => {
    const { request, response, trace } = event;
    if (!response) return;
    this.handoff.submit(request, trace, response, this.routes);
  };
}
