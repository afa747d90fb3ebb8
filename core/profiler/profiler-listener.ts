import type { KernelEvent } from '../kernel/kernel-event.js';
import type { RouteCollection } from '../routing/route-collection.js';
import { injectToolbar, renderToolbar } from '../../render/profiler/toolbar.js';
import { buildProfile, DURATION_KEY } from './build-profile.js';
import { applyProfilerSecurityHeaders } from './security-headers.js';
import type { ProfileStorage } from './storage/profile-storage.js';

/**
 * kernel.response: the debug token headers, the toolbar for HTML pages, and the
 * profiler's own security headers on every answer under /_profiler (run after
 * the debug headers, so `no-store` replaces their `no-cache`).
 * kernel.terminate: the profile, built and queued for storage after the
 * response was sent.
 */
export class ProfilerListener {
  constructor(private readonly storage: ProfileStorage, private readonly routes: RouteCollection) {}

  readonly onKernelResponse = (event: KernelEvent): void => {
    const { request, response } = event;
    if (!response) return;
    applyProfilerSecurityHeaders(request, response);
    if (!request.token) return;
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
      }));
      response.setHeader('Content-Length', String(Buffer.byteLength(response.body)));
    }
    request.extra.set(DURATION_KEY, request.elapsed());
  };

  readonly onKernelTerminate = (event: KernelEvent): void => {
    const { request, response } = event;
    if (!response || !request.token) return;
    this.storage.write(buildProfile(request, response, this.routes));
  };
}
