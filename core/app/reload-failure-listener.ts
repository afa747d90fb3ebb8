import { injectToolbar } from '../../render/profiler/toolbar.js';
import { renderReloadBanner, type ReloadFailureView } from '../../render/profiler/reload-banner.js';
import type { Kernel } from '../kernel/kernel.js';
import type { KernelEvent } from '../kernel/kernel-event.js';
import { KernelEvents } from '../kernel/kernel-events.js';

export const RELOAD_FAILED_HEADER = 'X-App-Reload-Failed';

/** A header value from a path: characters a header cannot carry are percent-encoded. */
export function reloadFailedHeaderValue(failure: ReloadFailureView): string {
  return failure.location.replace(/[^\x20-\x7e]|%/g, (c) => encodeURIComponent(c));
}

/**
 * kernel.response, after the toolbar: while `failure()` says the last reload failed, every response
 * says so in a header and every HTML page shows a banner with the message and the place.
 */
export function addReloadFailureListener(kernel: Kernel, failure: () => ReloadFailureView | null): void {
  kernel.dispatcher.addListener(KernelEvents.RESPONSE, 'ReloadFailureListener::onKernelResponse', (event: KernelEvent) => {
    const current = failure();
    const { request, response } = event;
    if (!current || !response) return;
    response.setHeader(RELOAD_FAILED_HEADER, reloadFailedHeaderValue(current));
    if (response.isHtml() && !response.isRedirect() && typeof response.body === 'string' && request.method !== 'HEAD') {
      response.body = injectToolbar(response.body, renderReloadBanner(current));
      if (response.header('content-length') !== undefined) response.setHeader('Content-Length', String(Buffer.byteLength(response.body)));
    }
  }, -256);
}
