import { escapeHtml } from '../core/http/escape-html.js';

/** The one HTML escaping helper lives in core/http (Response needs it); the renderers use it from here. */
export { escapeHtml };

/** `text` escaped, and cut after `max` characters (a surrogate pair kept whole) with an ellipsis. */
export function escapeHtmlCut(text: string, max: number): string {
  if (text.length <= max) return escapeHtml(text);
  const end = /[\ud800-\udbff]/.test(text[max - 1]) ? max - 1 : max;
  return `${escapeHtml(text.slice(0, end))}&hellip;`;
}

/**
 * A URL that may go into an href: http(s) absolute or a path on this server;
 * `null` for anything else (`javascript:`, `data:`, protocol-relative `//host`).
 */
export function safeUrl(url: string): string | null {
  const s = String(url ?? '').trim();
  if (/^https?:\/\//i.test(s)) return s;
  if (s.startsWith('/') && !s.startsWith('//') && !s.startsWith('/\\')) return s;
  return null;
}

/** `?a=1&b=2` from defined values, each encoded; ready to escape into an href. */
export function queryString(params: Record<string, string | number | undefined>): string {
  const parts: string[] = [];
  for (const [name, value] of Object.entries(params)) {
    if (value !== undefined && value !== '')
      parts.push(`${encodeURIComponent(name)}=${encodeURIComponent(String(value))}`);
  }
  return parts.length ? `?${parts.join('&')}` : '';
}

/**
 * Text with its characters beyond ASCII written as character references: a page all ASCII takes
 * the fast paths of UTF-8 encoding and of the profiler's hand-off (a title's "·" cost a 404 page
 * about a sixth of its time).
 */
export function asciiHtml(text: string): string {
  return /[^\x00-\x7f]/.test(text) ? text.replace(/[^\x00-\x7f]/gu, (c) => `&#${c.codePointAt(0)};`) : text;
}
