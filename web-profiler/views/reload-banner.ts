import { escapeHtml } from '../../render/escape.js';

export interface ReloadFailureView {
  /** the load error's one-line message */
  message: string;
  /** "file:line:column", or the app file when the error names no place */
  location: string;
}

/**
 * A red banner fixed at the top of every HTML page while the last reload of the app failed:
 * the page comes from the last good app, not from the code on disk. Styled inline, no script.
 */
export function renderReloadBanner(view: ReloadFailureView): string {
  return (
    '<div id="appkernel-reload-failed" role="alert" ' +
    'style="position:fixed;left:0;right:0;top:0;z-index:2147483647;padding:8px 12px;background:#b91c1c;color:#fff;' +
    'font:13px/1.4 system-ui,-apple-system,sans-serif;text-align:left;white-space:pre-wrap;word-break:break-word;box-shadow:0 1px 4px rgba(0,0,0,.3)">' +
    '<strong>Reload failed: the last good app is serving this page.</strong> ' +
    `<span>${escapeHtml(view.message)}</span> ` +
    `<code style="font:12px ui-monospace,monospace;background:rgba(0,0,0,.25);padding:1px 4px">${escapeHtml(view.location)}</code></div>`
  );
}
