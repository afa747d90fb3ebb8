import type { ExceptionRecord, Profile } from '../core/profiler/profile.js';
import { renderProfileHeader } from '../render/text/profile-header-text.js';
import { formatFrame } from '../render/text/panels/exception-panel.js';
import { renderLogPanel } from '../render/text/panels/log-panel.js';
import { terminalSafe } from '../render/text/terminal-safe.js';
import { MODEL_TEXT } from './profile-text.js';

const SOURCE_LINES_AROUND = 3;
const LOG_AROUND = 10;

/** One exception of the chain: class, message, frames; each of the app's frames with the source lines around it. */
function exceptionText(record: ExceptionRecord, n: number, total: number): string {
  const lines = [
    `${total > 1 ? `[${n}/${total}] ` : ''}${terminalSafe(record.class)} (${record.status}): ${terminalSafe(record.message)}`,
  ];
  for (const frame of record.frames) {
    lines.push(`  ${formatFrame(frame)}${frame.kind === 'app' ? '' : ` [${frame.kind}]`}`);
    if (frame.kind !== 'app' || !frame.excerpt || frame.line === null) continue;
    const { start, lines: source } = frame.excerpt;
    const from = Math.max(0, frame.line - start - SOURCE_LINES_AROUND);
    source.slice(from, frame.line - start + SOURCE_LINES_AROUND + 1).forEach((text, i) => {
      const number = start + from + i;
      lines.push(`    ${number === frame.line ? '>' : ' '} ${String(number).padStart(4)} | ${terminalSafe(text)}`);
    });
  }
  return lines.join('\n');
}

/** The log records around the first ERROR (or worse): what happened just before and after it. */
function logAroundError(profile: Profile): string {
  const { records } = profile.collectors.log;
  const at = records.findIndex(
    (r) => r.level === 'ERROR' || r.level === 'CRITICAL' || r.level === 'ALERT' || r.level === 'EMERGENCY',
  );
  const centre = at === -1 ? records.length - 1 : at;
  const shown = records.slice(Math.max(0, centre - LOG_AROUND), centre + LOG_AROUND + 1);
  const text = renderLogPanel({ ...profile.collectors.log, records: shown }, { ...MODEL_TEXT, allRecords: true });
  return shown.length < records.length
    ? `${text}(${shown.length} of ${records.length} log records shown, around the error; get_profile with panel "log" has them all)\n`
    : text;
}

/** What last_error says of a failed request: who it was, the exception chain with the app's source, the log around the error. */
export function lastErrorText(profile: Profile): string {
  const chain = profile.collectors.exception?.chain ?? [];
  const exceptions =
    chain.length === 0
      ? 'No exception was recorded: the app answered the error status itself.'
      : chain.map((record, i) => exceptionText(record, chain.length - i, chain.length)).join('\n\n');
  return `${renderProfileHeader(profile, MODEL_TEXT)}\nException chain (outermost first):\n${exceptions}\n\nLog around the error:\n${logAroundError(profile)}`;
}
