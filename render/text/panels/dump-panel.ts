import type { Profile } from '../../../core/profiler/profile.js';
import { dumpPlace, dumpText } from '../../dump-text.js';
import { paint } from '../ansi.js';
import { renderHeading } from '../blocks.js';
import { formatMs } from '../format.js';
import { terminalSafe, terminalSafeBlock } from '../terminal-safe.js';

/** One dump as terminal text: its place, then the value; also what `app serve` echoes. */
export function renderDumpEntry(
  dump: { file: string | null; line: number | null; time: number | null; value: Parameters<typeof dumpText>[0] },
  options: { color: boolean },
): string {
  const when = dump.time == null ? '' : ` at ${formatMs(dump.time)}`;
  return `${paint(`dump ${terminalSafe(dumpPlace(dump))}${when}`, 'cyan', options.color)}\n${terminalSafeBlock(dumpText(dump.value)).replace(/\n$/, '')}\n`;
}

/** Each dump() call of the request. */
export function renderDumpPanel(profile: Profile, options: { color: boolean }): string {
  const head = renderHeading('Dumps', options.color);
  const dumps = profile.collectors.dump?.dumps ?? [];
  if (dumps.length === 0) return `${head}${paint('Nothing was dumped.', 'dim', options.color)}\n`;
  return head + dumps.map((dump) => renderDumpEntry(dump, options)).join('\n');
}
