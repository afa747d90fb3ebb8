import type { BodyData } from '../../core/profiler/profile.js';
import { paint } from './ansi.js';
import { plural } from './format.js';
import { terminalSafe, terminalSafeBlock } from './terminal-safe.js';

/** A stored body: its content type, size and whether it was cut, dimmed, then its (redacted) text. */
export function renderBodyText(body: BodyData | null | undefined, color: boolean, none = '(none)'): string {
  if (!body || body.size === 0) return paint(none, 'dim', color) + '\n';
  const about = [
    body.contentType ?? 'no content type',
    plural(body.size, 'byte'),
    ...(body.truncated ? ['truncated'] : []),
  ];
  const text = terminalSafeBlock(body.text).replace(/\n$/, '');
  return `${paint(terminalSafe(about.join(', ')), 'dim', color)}\n${text ? `${text}\n` : ''}`;
}
