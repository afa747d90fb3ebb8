import type { DatabaseQueryData, Profile } from '../../../core/profiler/profile.js';
import { editorLinkHtml, type EditorLinks } from '../../editor-link.js';
import { escapeHtml } from '../../escape.js';
import { formatMs } from '../../format.js';
import {
  ASSUMED_PLACE_NOTE,
  assumedMark,
  databaseSummary,
  framePlace,
  NO_QUERIES,
  repeatedWarning,
  RUNNABLE_REDACTED_NOTE,
  targetText,
} from '../../database-words.js';

export interface DatabasePanelOptions {
  editor?: EditorLinks | null;
}

function place(frame: DatabaseQueryData['frame'], editor: EditorLinks | null | undefined, mark = ''): string {
  return `<span class="file">${escapeHtml(framePlace(frame))}</span>${mark}${editorLinkHtml(editor, frame?.file ?? null, frame?.line ?? null)}`;
}

function rowClass(query: DatabaseQueryData): string {
  return query.error != null ? ' class="db-failed"' : query.slow ? ' class="db-slow"' : '';
}

function renderQuery(
  token: string,
  query: DatabaseQueryData,
  index: number,
  editor: EditorLinks | null | undefined,
): string {
  // each mark on a line of its own: the column stays narrow on a phone
  const marks =
    (query.error != null ? '<br><span class="b err">failed</span>' : '') +
    (query.slow ? '<br><span class="b warn">slow</span>' : '');
  const explain =
    query.error == null
      ? `<form class="db-explain" method="post" action="/_profiler/explain"><input type="hidden" name="token" value="${escapeHtml(token)}">` +
        `<input type="hidden" name="query" value="${index}"><button type="submit">Explain</button></form>`
      : '';
  return (
    `<tr${rowClass(query)} id="query-${index + 1}"><td>${index + 1}</td><td>${query.duration == null ? '&hellip;' : formatMs(query.duration)}${marks}</td>` +
    `<td>${query.rows == null ? '' : escapeHtml(String(query.rows))}</td>` +
    `<td><pre class="db-sql">${escapeHtml(query.sql)}</pre>` +
    (query.error == null ? '' : `<p class="err">${escapeHtml(query.error)}</p>`) +
    `<p class="muted">at ${formatMs(query.start)} &middot; ${escapeHtml(targetText(query))} &middot; from ${place(query.frame, editor, assumedMark(query))}</p>` +
    (!query.params?.length
      ? ''
      : `<p class="muted">Parameters: <code>${escapeHtml(JSON.stringify(query.params))}</code></p>`) +
    `<details><summary>Runnable SQL</summary><pre class="db-runnable">${escapeHtml(query.runnable)}</pre>` +
    (!query.redacted?.length
      ? ''
      : `<p class="muted">Redacted: ${escapeHtml(query.redacted.join(', '))}. ${escapeHtml(RUNNABLE_REDACTED_NOTE)}</p>`) +
    `</details>${explain}</td></tr>`
  );
}

/** The queries in order, the repeated-query warnings first, then the statements grouped by shape. */
export function renderDatabasePanel(profile: Profile, options: DatabasePanelOptions = {}): string {
  const data = profile.collectors.db;
  if (!data || data.queries.length === 0)
    return `<h2>Database</h2><div class="card"><p class="empty">${NO_QUERIES}</p></div>`;
  const warnings = (data.repeated ?? [])
    .map(
      (repeat) =>
        `<div class="card db-repeated"><p><span class="b warn">N+1</span> ${escapeHtml(repeatedWarning(repeat))}` +
        `${options.editor && repeat.frame.file != null ? ` ${place(repeat.frame, options.editor).replace(/^<span class="file">.*?<\/span> /, '')}` : ''}</p>` +
        `<pre class="db-sql">${escapeHtml(repeat.shape)}</pre></div>`,
    )
    .join('');
  const rows = data.queries.map((query, i) => renderQuery(profile.token, query, i, options.editor)).join('');
  const assumed = data.queries.some((query) => assumedMark(query) !== '')
    ? `<p class="muted">${escapeHtml(ASSUMED_PLACE_NOTE)}</p>`
    : '';
  const groups = (data.groups ?? [])
    .map(
      (group) =>
        `<tr><td>${group.count}</td><td>${formatMs(group.totalTime)}</td><td><pre class="db-sql">${escapeHtml(group.shape)}</pre></td></tr>`,
    )
    .join('');
  return (
    `<h2>Database</h2>${warnings}<div class="card"><p>${escapeHtml(databaseSummary(data))}</p>` +
    `<table class="db-queries"><thead><tr><th>#</th><th>Time</th><th>Rows</th><th>Statement</th></tr></thead><tbody>${rows}</tbody></table>${assumed}</div>` +
    `<div class="card"><h3>Statements</h3><table class="db-groups"><thead><tr><th>Count</th><th>Time</th><th>Statement</th></tr></thead><tbody>${groups}</tbody></table></div>`
  );
}
