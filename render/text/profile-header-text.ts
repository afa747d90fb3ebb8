import type { Profile } from '../../core/profiler/profile.js';
import { paint, statusStyle } from './ansi.js';
import { renderFields } from './blocks.js';
import { formatDateTime, formatMs } from './format.js';
import { futureNote } from '../format.js';
import { terminalSafe } from './terminal-safe.js';
import type { TextOptions } from './text-options.js';

/** Token, request line, status and time: what identifies the profile above any panel. */
export function renderProfileHeader(profile: Profile, options: TextOptions): string {
  const statusText = profile.collectors.request.response.statusText;
  const status = paint(
    `${profile.status}${statusText ? ` ${terminalSafe(statusText)}` : ''}`,
    statusStyle(profile.status),
    options.color,
  );
  return renderFields(
    [
      ['Token', paint(terminalSafe(profile.token), 'cyan', options.color)],
      ['Request', terminalSafe(`${profile.method} ${profile.url}`)],
      ['Status', status],
      ['IP', terminalSafe(profile.ip)],
      [
        'Time',
        `${formatDateTime(profile.time)} (${formatMs(profile.duration)})${noteAhead(profile.time, options.now)}`,
      ],
    ],
    options,
  );
}

function noteAhead(time: number, now: number | undefined): string {
  const note = futureNote(time, now);
  return note ? `, ${note}` : '';
}
