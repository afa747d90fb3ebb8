import type { ExceptionRecord, Frame, Profile } from '../../../core/profiler/profile.js';
import { paint } from '../ansi.js';
import { renderHeading } from '../blocks.js';
import { visibleWidth, wrapText } from '../fit.js';
import { terminalSafe } from '../terminal-safe.js';
import { type LogTextOptions, renderLogPanel } from './log-panel.js';
import type { TextOptions } from '../text-options.js';

export const NO_EXCEPTION = 'No exception was thrown and caught during the request.';

export function formatFrame(frame: Frame): string {
  const fn = terminalSafe(frame.function);
  if (!frame.file) return `at ${fn}`;
  const where = frame.line == null ? terminalSafe(frame.file) : `${terminalSafe(frame.file)}:${frame.line}`;
  return `at ${fn} (${where})`;
}

/** `[n/total]` counts down from the outermost, so the innermost cause is `[1/total]`; a lone exception has no number. */
function renderTrace(record: ExceptionRecord, n: number, total: number, options: TextOptions): string {
  const { color } = options;
  const number = total > 1 ? `[${n}/${total}] ` : '';
  const title = `${number}${paint(terminalSafe(record.class), 'bold', color)}`;
  const lines = [title, ...wrapLines(terminalSafe(record.message), '  ', options.width)];
  for (const [name, value] of Object.entries(record.headers))
    lines.push(`  ${terminalSafe(name)}: ${terminalSafe(value)}`);
  for (const frame of record.frames) {
    for (const text of wrapLines(formatFrame(frame), '    ', options.width))
      lines.push(frame.kind === 'app' ? text : paint(text, 'dim', color));
  }
  return lines.map((l) => `${l}\n`).join('');
}

/** A message on as many lines as the terminal's width needs, each after `indent`. */
function wrapLines(text: string, indent: string, width: number | undefined): string[] {
  const lines =
    width === undefined || indent.length + visibleWidth(text) <= width ? [text] : wrapText(text, width - indent.length);
  return lines.map((l) => `${indent}${l}`);
}

/** The outermost exception, every trace outermost first (innermost lowest), then the request's log (event records folded unless `allRecords`). */
export function renderExceptionPanel(profile: Profile, options: LogTextOptions): string {
  const { color } = options;
  const chain = profile.collectors.exception?.chain ?? [];
  const outer = chain[0];
  if (!outer) return `${renderHeading('Exception', color)}${NO_EXCEPTION}\n`;
  const summary = `${paint(terminalSafe(outer.class), 'red', color)} (${outer.status})\n${wrapLines(terminalSafe(outer.message), '', options.width).join('\n')}\n`;
  const title = chain.length > 1 ? `Exceptions (${chain.length})` : 'Exception';
  const traces = chain.map((record, i) => renderTrace(record, chain.length - i, chain.length, options)).join('\n');
  return `${renderHeading(title, color)}${summary}\n${traces}\n${renderLogPanel(profile.collectors.log, options)}`;
}
