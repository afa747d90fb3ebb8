import { load } from 'cheerio';
import { applyNormalisers, defaultNormalisers, findTokens, type Normaliser } from './normalise.js';
import {
  DROPPED,
  hasPlainContent,
  isElement,
  isText,
  PLAIN_INLINE,
  type ElementNode,
  type OutlineNode,
} from './outline-node.js';
import { collapse, collectText, formatAttribute, textOf, truncate, words } from './outline-text.js';

export interface OutlineOptions {
  /** replace the default list (defaultNormalisers with `root` and the page's own tokens) */
  normalisers?: Normaliser[];
  /** the app root, shown as `<ROOT>` by the default normalisers */
  root?: string;
  /** a CSS selector: outline only the matching elements (default: the whole page) */
  select?: string;
  /** which classes to show (default: all) */
  keepClass?: (name: string) => boolean;
  /** text longer than this is cut with `…` (default 160 characters) */
  maxText?: number;
}

/** Attributes worth a line, per element, in the order shown. */
const SHOWN_ATTRIBUTES: Record<string, readonly string[]> = {
  a: ['href'],
  img: ['src', 'alt'],
  iframe: ['src'],
  form: ['method', 'action'],
  input: ['type', 'name', 'value', 'placeholder', 'checked', 'disabled'],
  button: ['type', 'name', 'value', 'disabled'],
  select: ['name', 'multiple', 'disabled'],
  option: ['value', 'selected', 'disabled'],
  textarea: ['name'],
  details: ['open'],
};
const BOOLEAN_ATTRIBUTES = new Set(['checked', 'disabled', 'multiple', 'selected', 'hidden', 'open']);

interface Context {
  normalise: (text: string) => string;
  keepClass: (name: string) => boolean;
  maxText: number;
  lines: string[];
}

/**
 * A page as a stable, readable, line-per-node outline, indented by depth: elements with their id and
 * classes, headings and other leaf elements with their text, tables as `| cell | cell |` rows, links
 * with their targets, form fields with name, type and value, `<pre>` line by line. Scripts, styles,
 * comments and whitespace are left out; volatile values become placeholders (see normalise.ts).
 */
export function outline(html: string, options: OutlineOptions = {}): string {
  const $ = load(html);
  const normalisers =
    options.normalisers ??
    defaultNormalisers({ root: options.root, tokens: findTokens(`${html}\n${$.root().text()}`) });
  const ctx: Context = {
    normalise: (text) => applyNormalisers(text, normalisers),
    keepClass: options.keepClass ?? (() => true),
    maxText: options.maxText ?? 160,
    lines: [],
  };
  if (options.select) {
    for (const node of $(options.select).toArray() as unknown as OutlineNode[]) outlineNode(node, 0, ctx);
  } else {
    const title = collapse($('head > title').first().text());
    if (title) ctx.lines.push(`title ${quote(title, ctx)}`);
    const body = $('body').get(0) as unknown as OutlineNode | undefined;
    if (body) outlineChildren(body, 0, ctx);
  }
  return ctx.lines.length ? `${ctx.lines.join('\n')}\n` : '';
}

function outlineNode(node: OutlineNode, depth: number, ctx: Context): void {
  if (!isElement(node) || DROPPED.has(node.name)) return;
  const indent = '  '.repeat(depth);
  const head = elementHead(node, ctx);
  if (node.name === 'table') return outlineTable(node, depth, ctx);
  if (node.name === 'select') {
    ctx.lines.push(indent + head);
    for (const option of descendants(node, 'option')) {
      const text = textOf(option);
      ctx.lines.push(`${indent}  ${elementHead(option, ctx, text)} ${quote(text, ctx)}`.trimEnd());
    }
    return;
  }
  if (node.name === 'pre') return outlinePre(node, depth, ctx);
  if (hasPlainContent(node)) {
    const text = textOf(node);
    ctx.lines.push(indent + head + (text ? ` ${quote(text, ctx)}` : ''));
    return;
  }
  ctx.lines.push(indent + head);
  outlineChildren(node, depth + 1, ctx);
}

/** Children at `depth`: runs of text and plain inline elements as one quoted line each, other elements outlined. */
function outlineChildren(node: OutlineNode, depth: number, ctx: Context): void {
  let run = '';
  const flush = () => {
    const text = words(run);
    if (text) ctx.lines.push(`${'  '.repeat(depth)}${quote(text, ctx)}`);
    run = '';
  };
  for (const child of node.children ?? []) {
    if (isText(child) || (isElement(child) && PLAIN_INLINE.has(child.name) && hasPlainContent(child))) {
      run += collectText(child, { edges: true });
    } else if (isElement(child) && !DROPPED.has(child.name)) {
      flush();
      outlineNode(child, depth, ctx);
    }
  }
  flush();
}

/** `tag#id.class[attr=value ...]`; an option's value is shown only when it differs from its text. */
function elementHead(node: ElementNode, ctx: Context, text?: string): string {
  const { attribs } = node;
  const id = attribs.id ? `#${ctx.normalise(attribs.id)}` : '';
  const classes = (attribs.class ?? '')
    .split(/\s+/)
    .filter((c) => c && ctx.keepClass(c))
    .map((c) => `.${c}`)
    .join('');
  const shown = [...(SHOWN_ATTRIBUTES[node.name] ?? []), 'hidden']
    .filter(
      (name) => attribs[name] !== undefined && !(name === 'value' && node.name === 'option' && attribs[name] === text),
    )
    .map((name) => formatAttribute(name, ctx.normalise(attribs[name]!), BOOLEAN_ATTRIBUTES.has(name)));
  return `${node.name}${id}${classes}${shown.length ? `[${shown.join(' ')}]` : ''}`;
}

function outlineTable(node: ElementNode, depth: number, ctx: Context): void {
  const indent = '  '.repeat(depth);
  ctx.lines.push(indent + elementHead(node, ctx));
  const caption = descendants(node, 'caption', 'table')[0];
  if (caption) ctx.lines.push(`${indent}  caption ${quote(textOf(caption), ctx)}`);
  for (const row of descendants(node, 'tr', 'table')) {
    const cells = row.children.filter((c) => isElement(c) && (c.name === 'td' || c.name === 'th'));
    const texts = cells.map((cell) =>
      truncate(ctx.normalise(textOf(cell, (text, href) => `[${text}](${href})`)), ctx.maxText).replace(/\|/g, '\\|'),
    );
    ctx.lines.push(`${indent}  | ${texts.join(' | ')} |`.replace(/ {2}\|$/, ' |'));
  }
}

function outlinePre(node: ElementNode, depth: number, ctx: Context): void {
  const indent = '  '.repeat(depth);
  ctx.lines.push(indent + elementHead(node, ctx));
  const lines = node.children
    .map((child) => collectText(child))
    .join('')
    .replace(/\r\n?/g, '\n')
    .replace(/\t/g, '  ')
    .split('\n')
    .map((l) => l.trimEnd());
  while (lines.length && !lines[0]) lines.shift();
  while (lines.length && !lines[lines.length - 1]) lines.pop();
  const common = Math.min(...lines.filter((l) => l).map((l) => l.length - l.trimStart().length));
  for (const line of lines)
    ctx.lines.push(`${indent}  >${line ? ` ${truncate(ctx.normalise(line.slice(common)), ctx.maxText)}` : ''}`);
}

/** Elements named `name` under `node`, in document order, not looking inside nested `stop` elements. */
function descendants(node: OutlineNode, name: string, stop?: string): ElementNode[] {
  const found: ElementNode[] = [];
  for (const child of node.children ?? []) {
    if (!isElement(child)) continue;
    if (child.name === name) found.push(child);
    else if (child.name !== stop) found.push(...descendants(child, name, stop));
  }
  return found;
}

function quote(text: string, ctx: Context): string {
  return `"${truncate(ctx.normalise(text), ctx.maxText)}"`;
}
