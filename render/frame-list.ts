import type { CodeExcerpt, Frame } from '../core/profiler/profile.js';
import { editorLinkHtml, type EditorLinks } from './editor-link.js';
import { escapeHtml } from './escape.js';
import { type ExcerptPlan, type FrameExcerpt, planExcerpts, planKey } from './excerpt-plan.js';
import { plural } from './format.js';
import { highlightLines, sourceLanguage } from './highlight-source.js';

export interface FrameOptions {
  /** "open in editor" links on the app's frames; none when null or absent */
  editor?: EditorLinks | null;
}

function lineClass(n: number, line: number | null, calls: readonly number[]): string {
  if (n === line) return ' class="hl"';
  return calls.includes(n) ? ' class="call"' : '';
}

/** The excerpt with the frame's line highlighted and `calls`, the lines of other frames it holds, marked. */
function renderExcerpt(
  excerpt: CodeExcerpt,
  line: number | null,
  file: string | null,
  calls: readonly number[],
): string {
  const highlighted = highlightLines(excerpt.lines, sourceLanguage(file));
  const lines = highlighted.map((html, i) => {
    const n = excerpt.start + i;
    // A space after the number and a line feed per line: the excerpt reads right without CSS, and in snapshot outlines.
    return `<span${lineClass(n, line, calls)}><i>${n} </i>${html}\n</span>`;
  });
  return `<pre class="code">${lines.join('')}</pre>`;
}

function editorLink(frame: Frame, editor: EditorLinks | null | undefined): string {
  return frame.kind === 'app' ? editorLinkHtml(editor, frame.file, frame.line) : '';
}

function renderFrameExcerpt(frame: Frame, plan: FrameExcerpt | undefined): string {
  if (frame.kind !== 'app' || !frame.excerpt) return '';
  if (plan?.above) return ' <span class="muted excerpt-above">&middot; code shown above</span>';
  return renderExcerpt(frame.excerpt, frame.line, frame.file, plan?.calls ?? []);
}

/** `fn in file line 12`, the frame's own words, and its code excerpt (or where it is shown, by `plan`). */
export function renderFrame(frame: Frame, options: FrameOptions = {}, plan?: FrameExcerpt): string {
  const where =
    frame.file === null
      ? ''
      : ` <span class="muted">in</span> <span class="file">${escapeHtml(frame.file)}</span>` +
        (frame.line == null ? '' : ` <span class="muted">line</span> ${escapeHtml(String(frame.line))}`);
  return `<li class="frame-${frame.kind}"><span class="fn">${escapeHtml(frame.function)}</span>${where}${editorLink(frame, options.editor)}${renderFrameExcerpt(frame, plan)}</li>`;
}

interface FrameGroup {
  app: boolean;
  start: number;
  frames: Frame[];
}

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

/** The HTML of frozen frame lists (a stack met again hands out the same frozen frames), by editor links and excerpt plan. */
const rendered = new WeakMap<readonly Frame[], Map<string, string>>();

/**
 * The frames, innermost call first. The app's own frames are shown with their
 * code excerpt, each line of code once (`plan`, from planExcerpts: by default, this list's own);
 * runs of vendor and Node-internal frames fold into a closed `<details>`, always: they are rarely
 * where the bug is.
 */
export function renderFrameList(
  frames: readonly Frame[],
  options: FrameOptions = {},
  plan: ExcerptPlan = planExcerpts([frames])[0] ?? [],
): string {
  if (!Object.isFrozen(frames)) return renderFrames(frames, options, plan);
  let byKey = rendered.get(frames);
  if (byKey === undefined) rendered.set(frames, (byKey = new Map()));
  const key = `${options.editor ? `${options.editor.template}\n${options.editor.root}` : ''}\n${planKey(plan)}`;
  let html = byKey.get(key);
  if (html === undefined) byKey.set(key, (html = renderFrames(frames, options, plan)));
  return html;
}

function renderFrames(frames: readonly Frame[], options: FrameOptions, plan: ExcerptPlan): string {
  if (frames.length === 0) return '<p class="empty">No stack frames.</p>';
  return groupFrames(frames)
    .map((group) => {
      const list = `<ol class="frames" start="${group.start}">${group.frames.map((frame, i) => renderFrame(frame, options, plan[group.start - 1 + i])).join('')}</ol>`;
      if (group.app) return list;
      return `<details><summary>${plural(group.frames.length, 'vendor/internal frame')}</summary>${list}</details>`;
    })
    .join('');
}
