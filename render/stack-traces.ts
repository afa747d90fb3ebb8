import type { ExceptionData, ExceptionRecord, Frame } from '../core/profiler/profile.js';
import { escapeHtml } from './escape.js';
import { plural } from './format.js';

function traceLine(frame: Frame): string {
  if (frame.file === null) return `  at ${frame.function}`;
  const position = [frame.file, frame.line, frame.column].filter((p) => p !== null).join(':');
  return `  at ${frame.function} (${position})`;
}

/** The trace lines of frozen frame lists as HTML text, which a stack met again hands out each time. */
const traceHtmls = new WeakMap<readonly Frame[], string>();

function traceHtml(frames: readonly Frame[]): string {
  if (!Object.isFrozen(frames)) return escapeHtml(frames.map(traceLine).join('\n'));
  let html = traceHtmls.get(frames);
  if (html === undefined) traceHtmls.set(frames, (html = escapeHtml(frames.map(traceLine).join('\n'))));
  return html;
}

/** `[n/total] Class`, or just `Class` when the chain has one exception. */
export function traceHeading(record: ExceptionRecord, index: number, total: number): string {
  return total > 1 ? `[${total - index}/${total}] ${record.class}` : record.class;
}

/**
 * The plain-text traces, outermost first and numbered `[n/total]` so that the
 * innermost cause has the lowest number: for a 404, `[2/2]` is the HTTP error
 * and `[1/2]` the routing failure (ARCHITECTURE.md, "Fixed by the specification"). One exception: no number.
 * The headings stay in view; each text folds into a closed `<details>`.
 */
export function renderStackTraces(exception: ExceptionData): string {
  const total = exception.chain.length;
  return exception.chain
    .map((record, i) => {
      // Escaped in two parts (escaping goes character by character): the frames' part is kept.
      const text = `${escapeHtml(`${record.class}:\n${record.message}\n\n`)}${traceHtml(record.frames)}`;
      return (
        `<h3>${escapeHtml(traceHeading(record, i, total))}</h3>` +
        `<details class="trace-text"><summary>${plural(record.frames.length, 'frame')} as text</summary><pre class="trace">${text}</pre></details>`
      );
    })
    .join('');
}
