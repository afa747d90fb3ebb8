import type { HttpCallData, Profile } from '../../../core/profiler/profile.js';
import { paint, statusStyle } from '../ansi.js';
import { renderHeading, renderKeyValues } from '../blocks.js';
import { renderBodyText } from '../body-text.js';
import { formatMs } from '../format.js';
import { renderTable } from '../table.js';
import { terminalSafe } from '../terminal-safe.js';
import { profileUrl } from '../../../core/profiler/profiler-urls.js';

type Options = { color: boolean };

function status(call: HttpCallData, options: Options): string {
  if (call.error !== null) return paint(call.timedOut ? 'timeout' : 'error', 'red', options.color);
  if (call.status === null) return 'pending';
  return paint(String(call.status), statusStyle(call.status), options.color);
}

function headerLines(headers: Record<string, string | string[]>): [string, string][] {
  return Object.entries(headers).flatMap(([name, value]) =>
    (Array.isArray(value) ? value : [value]).map((v) => [name, v] as [string, string]),
  );
}

/** The outgoing calls as a table, then each call's error and headers. */
export function renderHttpClientPanel(profile: Profile, options: Options): string {
  const head = renderHeading('HTTP Client', options.color);
  const data = profile.collectors.http_client;
  if (!data)
    return `${head}${paint('This profile was recorded before outgoing HTTP calls were.', 'dim', options.color)}\n`;
  if (data.calls.length === 0) return `${head}${paint('No outgoing HTTP calls were made.', 'dim', options.color)}\n`;
  const rows = data.calls.map((call, i) => [
    String(i + 1),
    status(call, options),
    terminalSafe(call.method),
    terminalSafe(call.url),
    call.duration != null
      ? formatMs(call.duration, 2)
      : call.bodyUnread === true
        ? `${formatMs(call.headersAfter ?? 0, 2)}, body not read`
        : 'in flight',
  ]);
  const table = renderTable(
    [
      { title: '#', align: 'right' },
      { title: 'Status' },
      { title: 'Method' },
      { title: 'URL' },
      { title: 'Duration', align: 'right' },
    ],
    rows,
    options,
  );
  const details = data.calls
    .map(
      (call, i) =>
        `\n${paint(`#${i + 1} ${terminalSafe(call.method)} ${terminalSafe(call.url)}`, 'bold', options.color)}\n` +
        (call.error == null ? '' : `${paint(terminalSafe(call.error), 'red', options.color)}\n`) +
        (call.bodyUnread === true
          ? `Answered after ${formatMs(call.headersAfter ?? 0, 2)} (headers); body not read\n`
          : '') +
        (call.profile ? `Callee's profile ${terminalSafe(profileUrl(call.profile))}\n` : '') +
        `Request headers\n${renderKeyValues(headerLines(call.requestHeaders), { ...options, indent: '  ' })}` +
        `Response headers\n${renderKeyValues(headerLines(call.responseHeaders), { ...options, indent: '  ' })}` +
        (call.body ? `Response body\n${renderBodyText(call.body, options.color)}` : ''),
    )
    .join('');
  return `${head}${data.calls.length} call${data.calls.length === 1 ? '' : 's'}, ${formatMs(data.totalTime)} in all${data.errors ? `, ${data.errors} failed` : ''}\n\n${table}${details}`;
}
