import type { CodeExcerpt, Frame } from '../core/profiler/profile.js';
import { escapeHtml } from './escape.js';
import { plural } from './format.js';

function renderExcerpt(excerpt: CodeExcerpt, line: number | null): string {
  const lines = excerpt.lines.map((text, i) => {
    const n = excerpt.start + i;
    // A space after the number and a line feed per line: the excerpt reads right without CSS, and in snapshot outlines.
    return `<span${n === line ? ' class="hl"' : ''}><i>${n} </i>${escapeHtml(text)}\n</span>`;
  });
  return `<pre class="code">${lines.join('')}</pre>`;
}

/** `fn in file line 12`, the frame's own words. */
export function renderFrame(frame: Frame): string {
  const where = frame.file === null ? ''
    : ` <span class="muted">in</span> <span class="file">${escapeHtml(frame.file)}</span>`
      + (frame.line === null ? '' : ` <span class="muted">line</span> ${escapeHtml(String(frame.line))}`);
  const excerpt = frame.kind === 'app' && frame.excerpt ? renderExcerpt(frame.excerpt, frame.line) : '';
  return `<li class="frame-${frame.kind}"><span class="fn">${escapeHtml(frame.function)}</span>${where}${excerpt}</li>`;
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

/**
 * The frames, innermost call first. The app's own frames are shown with their
 * code excerpt; runs of vendor and Node-internal frames fold into `<details>`,
 * opened for the first run when the exception has no app frame at all (so a
 * routing error still shows where it was thrown).
 */
export function renderFrameList(frames: readonly Frame[]): string {
  if (frames.length === 0) return '<p class="empty">No stack frames.</p>';
  const groups = groupFrames(frames);
  const hasApp = groups.some((g) => g.app);
  return groups.map((group, i) => {
    const list = `<ol class="frames" start="${group.start}">${group.frames.map(renderFrame).join('')}</ol>`;
    if (group.app) return list;
    const open = !hasApp && i === 0 ? ' open' : '';
    return `<details${open}><summary>${plural(group.frames.length, 'vendor/internal frame')}</summary>${list}</details>`;
  }).join('');
}
