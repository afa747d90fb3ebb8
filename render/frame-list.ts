import type { CodeExcerpt, Frame } from '../core/profiler/profile.js';
import { absoluteFile, editorUrl, type EditorLinks } from './editor-link.js';
import { escapeHtml } from './escape.js';
import { plural } from './format.js';
import { highlightLines, sourceLanguage } from './highlight-source.js';

export interface FrameOptions {
  /** "open in editor" links on the app's frames; none when null or absent */
  editor?: EditorLinks | null;
}

function renderExcerpt(excerpt: CodeExcerpt, line: number | null, file: string | null): string {
  const highlighted = highlightLines(excerpt.lines, sourceLanguage(file));
  const lines = highlighted.map((html, i) => {
    const n = excerpt.start + i;
    // A space after the number and a line feed per line: the excerpt reads right without CSS, and in snapshot outlines.
    return `<span${n === line ? ' class="hl"' : ''}><i>${n} </i>${html}\n</span>`;
  });
  return `<pre class="code">${lines.join('')}</pre>`;
}

function editorLink(frame: Frame, editor: EditorLinks | null | undefined): string {
  if (!editor || frame.kind !== 'app' || frame.file === null) return '';
  const href = editorUrl(editor.template, absoluteFile(editor.root, frame.file), frame.line);
  return ` <a class="editor" href="${escapeHtml(href)}">Open in editor</a>`;
}

/** `fn in file line 12`, the frame's own words. */
export function renderFrame(frame: Frame, options: FrameOptions = {}): string {
  const where = frame.file === null ? ''
    : ` <span class="muted">in</span> <span class="file">${escapeHtml(frame.file)}</span>`
      + (frame.line === null ? '' : ` <span class="muted">line</span> ${escapeHtml(String(frame.line))}`);
  const excerpt = frame.kind === 'app' && frame.excerpt ? renderExcerpt(frame.excerpt, frame.line, frame.file) : '';
  return `<li class="frame-${frame.kind}"><span class="fn">${escapeHtml(frame.function)}</span>${where}${editorLink(frame, options.editor)}${excerpt}</li>`;
}

interface FrameGroup { app: boolean; start: number; frames: Frame[] }

function groupFrames(frames: readonly Frame[]): FrameGroup[] {
  const groups: FrameGroup[] = [];
  frames.forEach((frame, i) => {
    const app = frame.kind === 'app';
    const last = groups[groups.length - 1];
    if (last && last.app === app) last.frames.push(frame);
    else groups.push({ app, start: i + 1, frames: [frame] });
  });
  return groups;
}

/** The HTML of frozen frame lists (a stack met again hands out the same frozen frames), by editor links. */
const rendered = new WeakMap<readonly Frame[], Map<string, string>>();

/**
 * The frames, innermost call first. The app's own frames are shown with their
 * code excerpt; runs of vendor and Node-internal frames fold into a closed
 * `<details>`, always: they are rarely where the bug is.
 */
export function renderFrameList(frames: readonly Frame[], options: FrameOptions = {}): string {
  if (!Object.isFrozen(frames)) return renderFrames(frames, options);
  let byEditor = rendered.get(frames);
  if (byEditor === undefined) rendered.set(frames, byEditor = new Map());
  const key = options.editor ? `${options.editor.template}\n${options.editor.root}` : '';
  let html = byEditor.get(key);
  if (html === undefined) byEditor.set(key, html = renderFrames(frames, options));
  return html;
}

function renderFrames(frames: readonly Frame[], options: FrameOptions): string {
  if (frames.length === 0) return '<p class="empty">No stack frames.</p>';
  return groupFrames(frames).map((group) => {
    const list = `<ol class="frames" start="${group.start}">${group.frames.map((frame) => renderFrame(frame, options)).join('')}</ol>`;
    if (group.app) return list;
    return `<details><summary>${plural(group.frames.length, 'vendor/internal frame')}</summary>${list}</details>`;
  }).join('');
}
