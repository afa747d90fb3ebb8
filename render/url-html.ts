import { escapeHtml } from './escape.js';

/** After each of these a URL may go onto the next line. */
const SEPARATOR = /([/?&])/;

/**
 * A URL as HTML that wraps after "/", "?" and "&" (a `<wbr>` after each, but for the `//` of the
 * origin) rather than mid-word; cut at `max` characters with an ellipsis when longer. In a table
 * cell (styles.ts: `td .url-text`) a piece wider than the column widens it, and its card scrolls;
 * elsewhere the block's own overflow-wrap cuts such a piece as a last resort.
 */
export function urlHtml(url: string, max = Infinity): string {
  const cut = url.length > max ? url.slice(0, /[\ud800-\udbff]/.test(url[max - 1] ?? '') ? max - 1 : max) : url;
  const origin = /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i.exec(cut)?.[0] ?? '';
  const rest = cut
    .slice(origin.length)
    .split(SEPARATOR)
    .map((part) => (SEPARATOR.test(part) ? `${escapeHtml(part)}<wbr>` : escapeHtml(part)))
    .join('');
  return `<span class="url-text">${escapeHtml(origin)}${rest}${cut === url ? '' : '&hellip;'}</span>`;
}
