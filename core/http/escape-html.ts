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
