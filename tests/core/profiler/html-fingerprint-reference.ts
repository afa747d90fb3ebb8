import type { BodyStructure } from '../../../core/profiler/profile.js';

/**
 * The HTML fingerprint as it was first written: regular expressions over sliced attributes, each page
 * read through. The fast scan (core/profiler/html-fingerprint.ts) must give the same structure for
 * every text and token; tests compare the two.
 */
export function referenceHtmlFingerprint(html: string, token: string | null): BodyStructure {
  let hash = FNV_OFFSET;
  let nodes = 0;
  let i = 0;
  while ((i = html.indexOf('<', i)) !== -1) {
    if (html.charCodeAt(i + 1) === 33) {
      const end = html.startsWith('<!--', i) ? html.indexOf('-->', i + 4) : html.indexOf('>', i);
      if (end === -1) break;
      i = end + 1;
      continue;
    }
    const closing = html.charCodeAt(i + 1) === 47;
    const start = closing ? i + 2 : i + 1;
    if (!isLetter(html.charCodeAt(start))) {
      i = start;
      continue;
    }
    const end = html.indexOf('>', start);
    if (end === -1) break;
    let nameEnd = start + 1;
    while (nameEnd < end && !isSpace(html.charCodeAt(nameEnd)) && html.charCodeAt(nameEnd) !== 47) nameEnd++;
    i = end + 1;
    hash = step(mixLowerCase(closing ? step(hash, 47) : hash, html, start, nameEnd), 10);
    if (closing) continue;
    nodes++;
    if (end > nameEnd + 3) hash = mixIdAndClasses(hash, html.slice(nameEnd, end), token);
    const rawEnd =
      nameEnd - start === 6 || nameEnd - start === 5
        ? RAW_TEXT_END[html.slice(start, nameEnd).toLowerCase()]
        : undefined;
    if (rawEnd) {
      rawEnd.lastIndex = i;
      const m = rawEnd.exec(html);
      if (!m) break;
      i = m.index;
    }
  }
  return { kind: 'html', nodes, hash: (hash >>> 0).toString(16).padStart(8, '0') };
}

const FNV_OFFSET = 0x811c9dc5;
const step = (hash: number, code: number) => Math.imul(hash ^ code, 0x01000193);
const RAW_TEXT_END: Record<string, RegExp | undefined> = { script: /<\/script/gi, style: /<\/style/gi };
const ID_OR_CLASS = /[\s"'](id|class)\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+))/gi;

function mixLowerCase(hash: number, text: string, from: number, to: number): number {
  for (let i = from; i < to; i++) {
    const c = text.charCodeAt(i);
    hash = step(hash, c >= 65 && c <= 90 ? c + 32 : c);
  }
  return hash;
}

function mixIdAndClasses(hash: number, attributes: string, token: string | null): number {
  ID_OR_CLASS.lastIndex = 0;
  for (let m; (m = ID_OR_CLASS.exec(attributes)); ) {
    hash = step(hash, m[1]!.length === 2 ? 35 : 46);
    hash = mixValue(hash, m[2] ?? m[3] ?? m[4] ?? '', token);
  }
  return hash;
}

function mixValue(hash: number, value: string, token: string | null): number {
  const text = token && value.includes(token) ? value.replaceAll(token, '~') : value;
  let space = false;
  let digit = false;
  let empty = true;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    const isDigit = c >= 48 && c <= 57;
    if (isSpace(c)) {
      space = !empty;
    } else if (!(isDigit && digit)) {
      hash = step(space ? step(hash, 32) : hash, isDigit ? 48 : c);
      space = false;
      empty = false;
    }
    digit = isDigit;
  }
  return hash;
}

function isLetter(code: number): boolean {
  return (code >= 97 && code <= 122) || (code >= 65 && code <= 90);
}

function isSpace(code: number): boolean {
  return code === 32 || (code >= 9 && code <= 13);
}
