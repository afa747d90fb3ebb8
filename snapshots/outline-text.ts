import { DROPPED, isElement, isText, PLAIN_INLINE, type OutlineNode } from './outline-node.js';

/** Marks where an inline element starts or ends, until `words` decides whether a space goes there. */
const EDGE = '\u0001';

type Link = (text: string, href: string) => string;

/**
 * The raw text of a subtree, as a browser would run it together: inline elements glue, blocks
 * and `<br>` separate. With `edges`, inline element boundaries are marked for `words`.
 */
export function collectText(node: OutlineNode, options: { link?: Link; edges?: boolean } = {}): string {
  if (isText(node)) return node.data;
  if (!isElement(node)) return '';
  if (DROPPED.has(node.name)) return '';
  if (node.name === 'br') return ' ';
  const inner = node.children.map((child) => collectText(child, options)).join('');
  if (options.link && node.name === 'a' && node.attribs.href !== undefined)
    return ` ${options.link(words(inner), node.attribs.href)} `;
  if (!PLAIN_INLINE.has(node.name)) return ` ${inner} `;
  return options.edges ? `${EDGE}${inner}${EDGE}` : inner;
}

/**
 * Marked text to one line of words. Where an inline element meets a letter or digit on both sides
 * (`Performance<span>3.4 ms</span>`, `DEBUG<time>…`) a space is put in: CSS separates them on
 * screen, and normalisers need the boundary to see `3.4 ms` as a duration.
 */
export function words(text: string): string {
  return collapse(
    text.replace(new RegExp(`(?<=[\\p{L}\\p{N}])${EDGE}+(?=[\\p{L}\\p{N}])`, 'gu'), ' ').replaceAll(EDGE, ''),
  );
}

/** The words of a subtree on one line (see collectText and words). */
export function textOf(node: OutlineNode, link?: Link): string {
  return words(collectText(node, { link, edges: true }));
}

/** Whitespace runs (non-breaking spaces included) to one space; control characters dropped. */
export function collapse(text: string): string {
  return text
    .replace(/[\x00-\x08\x0b\x0e-\x1f\x7f]/g, '')
    .replace(/\s+/g, ' ')
    .trim();
}

export function truncate(text: string, max: number): string {
  const chars = [...text];
  return chars.length > max ? `${chars.slice(0, Math.max(1, max - 1)).join('')}…` : text;
}

/** `name=value`, quoted only when the value holds a space, quote, `]` or nothing; boolean attributes bare. */
export function formatAttribute(name: string, value: string, boolean: boolean): string {
  if (boolean) return name;
  return /^[^\s"'\]=]+$/.test(value) ? `${name}=${value}` : `${name}=${JSON.stringify(value)}`;
}
