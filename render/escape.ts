const SPECIAL = /[&<>"']/;
const SPECIALS = /[&<>"']/g;
const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/**
 * Escapes text for HTML element content and double- or single-quoted attribute
 * values. Anything that is not a string (a corrupt stored profile) is shown as text.
 */
export function escapeHtml(text: string): string {
  const s = typeof text === 'string' ? text : String(text ?? '');
  return SPECIAL.test(s) ? s.replace(SPECIALS, (c) => ENTITIES[c]) : s;
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
    if (value !== undefined && value !== '') parts.push(`${encodeURIComponent(name)}=${encodeURIComponent(String(value))}`);
  }
  return parts.length ? `?${parts.join('&')}` : '';
}
