import { injectToolbar } from '../web-profiler/views/toolbar.js';
import { renderReloadBanner, type ReloadFailureView } from '../web-profiler/views/reload-banner.js';
import type { Response } from '../core/http/response.js';

export const RELOAD_FAILED_HEADER = 'X-App-Reload-Failed';

/** A header value from a path: characters a header cannot carry are percent-encoded. */
export function reloadFailedHeaderValue(failure: ReloadFailureView): string {
  return failure.location.replace(/[^\x20-\x7e]|%/g, (c) => encodeURIComponent(c));
}

/**
 * While the last reload failed: the response says so in a header and an HTML page shows a banner
 * with the message and the place. Applied to the kernel's answer, outside the kernel: the
 * request's log and events stay those of the app.
 */
export function markReloadFailure(response: Response, failure: ReloadFailureView): void {
  response.setHeader(RELOAD_FAILED_HEADER, reloadFailedHeaderValue(failure));
  // HEAD too: its Content-Length is the GET's (BEHAVIOUR.md: same headers), though no body is sent.
  if (response.isHtml() && !response.isRedirect() && typeof response.body === 'string') {
    response.body = injectToolbar(response.body, renderReloadBanner(failure));
    if (response.header('content-length') !== undefined)
      response.setHeader('Content-Length', String(Buffer.byteLength(response.body)));
  }
}
