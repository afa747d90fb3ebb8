import { escapeHtml } from '../../render/escape.js';
import { formatMs } from '../../render/format.js';

export interface ToolbarData {
  token: string;
  status: number;
  route: string | null;
  /** ms */
  duration: number;
  logErrors: number;
  logWarnings: number;
  method: string;
  /** more items of plain text (e.g. the outgoing HTTP calls' count and time), after the logs */
  items?: readonly string[];
}

const STATUS_COLOURS: Record<number, string> = { 2: '#15803d', 3: '#1d4ed8', 4: '#c2410c', 5: '#b91c1c' };
const ITEM = 'display:inline-block;padding:0 12px;border-left:1px solid #374151';

function pill(text: string, background: string): string {
  return `<span style="display:inline-block;padding:0 8px;line-height:20px;vertical-align:middle;border-radius:10px;background:${background};color:#fff;font-weight:700">${text}</span>`;
}

/**
 * The debug toolbar for an HTML page: fixed at the bottom, styled inline so the
 * page's own CSS does not reach it, no script. A spacer keeps it from covering
 * the end of the page.
 */
export function renderToolbar(data: ToolbarData): string {
  const href = `/_profiler/${escapeHtml(encodeURIComponent(data.token))}`;
  const colour = STATUS_COLOURS[Math.floor(data.status / 100)] ?? '#4b5563';
  const logs = [
    data.logErrors ? pill(`${data.logErrors} error${data.logErrors === 1 ? '' : 's'}`, '#b91c1c') : '',
    data.logWarnings ? pill(`${data.logWarnings} warning${data.logWarnings === 1 ? '' : 's'}`, '#b45309') : '',
  ].filter(Boolean).join(' ') || 'no errors';
  return '<div style="height:36px" aria-hidden="true"></div>'
    + '<div id="appkernel-toolbar" class="appkernel-toolbar" role="complementary" aria-label="appkernel debug toolbar" '
    + 'style="position:fixed;left:0;right:0;bottom:0;z-index:2147483647;height:36px;line-height:36px;padding:0 8px;overflow:hidden;white-space:nowrap;'
    + 'background:#111827;color:#e5e7eb;font:13px/36px system-ui,-apple-system,sans-serif;text-align:left;box-shadow:0 -1px 4px rgba(0,0,0,.25)">'
    + `<a href="${href}" style="color:#fff;text-decoration:none;font-weight:700;padding-right:12px" title="Open the profile">appkernel</a>`
    + `<span style="${ITEM}">${pill(escapeHtml(String(data.status)), colour)} ${escapeHtml(data.method)} `
    + `${data.route === null ? '<em>no route</em>' : `@${escapeHtml(data.route)}`}</span>`
    + `<span style="${ITEM}">${formatMs(data.duration)}</span>`
    + `<span style="${ITEM}">${logs}</span>`
    + (data.items ?? []).map((item) => `<span style="${ITEM}" class="appkernel-toolbar-item">${escapeHtml(item)}</span>`).join('')
    + `<span style="${ITEM}"><a href="${href}" style="color:#93c5fd">${escapeHtml(data.token)}</a></span></div>`;
}

/** Puts the toolbar before the last `</body>` (any case), or at the end when the page has none. */
export function injectToolbar(html: string, toolbar: string): string {
  const at = lastBodyEnd(html);
  return at === -1 ? html + toolbar : html.slice(0, at) + toolbar + html.slice(at);
}

/**
 * Where the last `</body` starts, in any case. Read backwards from the page's last `</`, not in a
 * lower-cased copy of the page: that cost a copy of every HTML page, and its indices are off by one
 * for each character whose lower case is longer (`İ` becomes two), so the toolbar cut a tag in two.
 */
function lastBodyEnd(html: string): number {
  for (let at = html.lastIndexOf('</'); at !== -1; at = at === 0 ? -1 : html.lastIndexOf('</', at - 1)) {
    if (html.length - at >= 6 && html.slice(at + 2, at + 6).toLowerCase() === 'body') return at;
  }
  return -1;
}
