const SPECIAL = /[&<>"'\u202a-\u202e\u2066-\u2069]/;
const SPECIALS = /[&<>"'\u202a-\u202e\u2066-\u2069]/g;
const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** A bidi embedding, override or isolate shown as the escape that names it (`\u202e`), as the terminal shows it. */
const visible = (c: string): string => ENTITIES[c] ?? `\\u${c.charCodeAt(0).toString(16)}`;

/**
 * Escapes text for HTML element content and double- or single-quoted attribute
 * values. Anything that is not a string (a corrupt stored profile) is shown as text.
 * Bidi controls (U+202A-U+202E, U+2066-U+2069) are written as `\u202e`: raw, a header, log
 * message or path could show what follows it reversed (`exe.txt` read as `txt.exe`).
 */
export function escapeHtml(text: string): string {
  const s = typeof text === 'string' ? text : String(text ?? '');
  return SPECIAL.test(s) ? s.replace(SPECIALS, visible) : s;
}
