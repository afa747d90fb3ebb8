import type { KernelEvent } from '../core/kernel/kernel-event.js';
import { injectToolbarAndObserver, renderToolbar } from './views/toolbar.js';
import { toolbarSummary } from './toolbar-summary.js';
import type { ProfileHandoff } from '../core/profiler/handoff/profile-handoff.js';
import { applyProfilerSecurityHeaders } from './security-headers.js';
import type { Request } from '../core/http/request.js';
import type { Response } from '../core/http/response.js';
import { RecordingTrace, type RequestTrace } from '../core/kernel/request-trace.js';
import { isValidToken } from '../core/profiler/token.js';
import { renderNotFoundPage } from './views/not-found-page.js';
import { isProfilerPath, profileUrl } from '../core/profiler/profiler-urls.js';

/**
 * kernel.response: the debug token headers, the toolbar for the app's HTML pages (not the
 * profiler's own), the profiler's not-found answers in its own layout, and the profiler's own
 * security headers on every answer under /_profiler (run after the debug headers, so `no-store`
 * replaces their `no-cache`).
 * kernel.terminate: what the request recorded, handed to the profiler worker
 * once the response was sent (the profile is built there).
 */
export class ProfilerListener {
  /** `routes`: the id of the kernel's route table in the hand-off; `atResponse`: what else a profiled response records first */
  constructor(
    private readonly handoff: ProfileHandoff,
    private readonly routes: number,
    private readonly atResponse?: (event: KernelEvent) => void,
  ) {}

  readonly onKernelResponse = (event: KernelEvent): void => {
    const { request, response, trace } = event;
    if (!response) return;
    const own = isProfilerPath(request.path);
    if (own && response.status === 404) explainProfilerMiss(request, trace, response);
    applyProfilerSecurityHeaders(request, response);
    const token = trace.token;
    if (!token) return;
    this.atResponse?.(event);
    response.setHeader('X-Debug-Token', token);
    response.setHeader('X-Debug-Token-Link', `${request.baseUrl}${profileUrl(token)}`);
    if (!own && response.isHtml() && !response.isRedirect() && typeof response.body === 'string') {
      // HEAD too: its Content-Length is the GET's (BEHAVIOUR.md: same headers), though no body is sent.
      response.body = injectToolbarAndObserver(
        response.body,
        renderToolbar(toolbarSummary(request, response, trace, token)),
      );
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

/**
 * An unknown token or panel under /_profiler was thrown as a NotFoundHttpError (recorded, logged,
 * answered by the error listener): its HTML page becomes the profiler's not-found page, and a
 * `.json` address answers a problem document whatever the client accepts.
 */
function explainProfilerMiss(request: Request, trace: RequestTrace, response: Response): void {
  const top = (trace instanceof RecordingTrace ? trace.exception : null)?.chain[0];
  const route = request.attributes.route;
  if (top?.class !== 'NotFoundHttpError' || (route !== '_profiler' && route !== '_profiler_json') || !response.isHtml())
    return;
  if (route === '_profiler_json') {
    response.body = JSON.stringify({ type: 'about:blank', title: 'Not Found', status: 404, detail: top.message });
    response.setHeader('Content-Type', 'application/problem+json');
  } else {
    const token = request.attributes.params.token;
    const panelMiss = top.message.startsWith('Panel "') && token !== undefined && isValidToken(token);
    response.body = renderNotFoundPage({ message: top.message, token: panelMiss ? token : null });
  }
  response.setHeader('Content-Length', String(Buffer.byteLength(response.body)));
}
