import { createRequire } from 'node:module';
import type { HLJSApi, LanguageFn } from 'highlight.js';
import { escapeHtml } from './escape.js';
import { BoundedCache } from '../core/bounded-cache.js';

let hljs: HLJSApi | null = null;

/**
 * An instance of our own with two languages (no other module's registrations leak in), made at the
 * first excerpt highlighted: highlight.js is CommonJS, so it is required then, not loaded by every
 * process that imports the pages.
 */
function highlighter(): HLJSApi {
  if (hljs !== null) return hljs;
  const require = createRequire(import.meta.url);
  const made = (require('highlight.js/lib/core') as HLJSApi).newInstance();
  made.registerLanguage('javascript', require('highlight.js/lib/languages/javascript') as LanguageFn);
  made.registerLanguage('typescript', require('highlight.js/lib/languages/typescript') as LanguageFn);
  made.configure({ classPrefix: 'tok-' });
  hljs = made;
  return made;
}

const LANGUAGES: Record<string, string> = {
  ts: 'typescript',
  mts: 'typescript',
  cts: 'typescript',
  tsx: 'typescript',
  js: 'javascript',
  mjs: 'javascript',
  cjs: 'javascript',
  jsx: 'javascript',
};

/** typescript or javascript from a file name's extension; null for anything else. */
export function sourceLanguage(file: string | null): string | null {
  const extension = /\.([a-z]+)$/i.exec(file ?? '')?.[1]?.toLowerCase();
  return extension === undefined ? null : (LANGUAGES[extension] ?? null);
}

/**
 * Each line of `lines` as escaped HTML, highlighted with highlight.js's `tok-*` classes when the
 * language is known. The excerpt is highlighted as one text (a comment or template string
 * spanning lines stays one), then cut back into lines, every open span closed at the end of
 * its line and opened again on the next.
 */
export function highlightLines(lines: readonly string[], language: string | null): string[] {
  if (language === null) return lines.map(escapeHtml);
  // An error thrown from the same place shows the same excerpt on every page: highlighted once.
  const key = JSON.stringify([language, lines]);
  let highlighted = highlightedExcerpts.get(key);
  if (highlighted === undefined) highlighted = highlightedExcerpts.set(key, highlightAnew(lines, language));
  return highlighted.slice();
}

const MAX_HIGHLIGHTED = 200;
const highlightedExcerpts = new BoundedCache<string, string[]>(MAX_HIGHLIGHTED);

function highlightAnew(lines: readonly string[], language: string): string[] {
  let html: string;
  try {
    html = highlighter().highlight(lines.join('\n'), { language, ignoreIllegals: true }).value;
  } catch {
    return lines.map(escapeHtml);
  }
  return splitLines(html, lines.length);
}

const TAG = /<span class="[^"<>]*">|<\/span>/g;

function splitLines(html: string, count: number): string[] {
  const out: string[] = [];
  const open: string[] = [];
  let line = '';
  let last = 0;
  const text = (chunk: string) => {
    const pieces = chunk.split('\n');
    for (let i = 0; i < pieces.length; i++) {
      if (i > 0) {
        out.push(line + '</span>'.repeat(open.length));
        line = open.join('');
      }
      line += pieces[i];
    }
  };
  for (const m of html.matchAll(TAG)) {
    text(html.slice(last, m.index));
    if (m[0] === '</span>') open.pop();
    else open.push(m[0]);
    line += m[0];
    last = m.index + m[0].length;
  }
  text(html.slice(last));
  out.push(line + '</span>'.repeat(open.length));
  return out.length === count ? out : out.slice(0, count);
}
