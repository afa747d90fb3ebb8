import { BoundedCache } from '../bounded-cache.js';

/** How many bytes of a text body a profile keeps for its preview (a response's, an outgoing call's answer). */
export const PREVIEW_BYTES = 16 * 1024;

/**
 * Text a person reads in a preview: text/*, JSON, XML, JavaScript, form data. Not HTML: a page is
 * known by its title and structure, and is most often larger than a preview.
 */
export function isPreviewable(contentType: string | null): boolean {
  const key = contentType ?? '';
  let previewable = previewableTypes.get(key);
  if (previewable === undefined) previewable = previewableTypes.set(key, judgeType(key));
  return previewable;
}

/** Content types repeat on every response: each is judged once. Bounded. */
const MAX_TYPES = 256;
const previewableTypes = new BoundedCache<string, boolean>(MAX_TYPES);

function judgeType(contentType: string): boolean {
  const type = contentType.split(';')[0].trim().toLowerCase();
  if (type === 'text/html') return false;
  return (
    type.startsWith('text/') ||
    /[/+](json|xml)$/.test(type) ||
    type === 'application/javascript' ||
    type === 'application/x-www-form-urlencoded'
  );
}
