/**
 * The few fields of cheerio's parsed nodes (domhandler) the outline reads, typed here so
 * that the harness depends on cheerio alone, not on its parser's packages.
 */
export interface OutlineNode {
  type: string;
  name?: string;
  attribs?: Record<string, string>;
  children?: OutlineNode[];
  data?: string;
}

export type ElementNode = OutlineNode & { name: string; attribs: Record<string, string>; children: OutlineNode[] };

export function isElement(node: OutlineNode): node is ElementNode {
  return (node.type === 'tag' || node.type === 'script' || node.type === 'style') && typeof node.name === 'string';
}

export function isText(node: OutlineNode): node is OutlineNode & { data: string } {
  return node.type === 'text' && typeof node.data === 'string';
}

/** Never outlined: code, styling, metadata and icon drawings. */
export const DROPPED = new Set([
  'script',
  'style',
  'noscript',
  'template',
  'svg',
  'math',
  'head',
  'meta',
  'link',
  'base',
  'title',
]);

/** Text-level elements that only carry words: their text joins the text around them. */
export const PLAIN_INLINE = new Set([
  'abbr',
  'b',
  'bdi',
  'bdo',
  'br',
  'cite',
  'code',
  'data',
  'del',
  'dfn',
  'em',
  'i',
  'ins',
  'kbd',
  'label',
  'mark',
  'q',
  's',
  'samp',
  'small',
  'span',
  'strong',
  'sub',
  'sup',
  'time',
  'u',
  'var',
  'wbr',
]);

/** True when the element holds only text and plain inline elements, so one line can show it whole. */
export function hasPlainContent(node: OutlineNode): boolean {
  return (node.children ?? []).every((child) => {
    if (isText(child)) return true;
    if (!isElement(child)) return true;
    if (DROPPED.has(child.name)) return true;
    return PLAIN_INLINE.has(child.name) && hasPlainContent(child);
  });
}
