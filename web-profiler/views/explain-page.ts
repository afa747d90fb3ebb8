import type { DatabaseQueryData } from '../../core/profiler/profile.js';
import type { ExplainResult } from '../../core/profiler/explain-query.js';
import { escapeHtml } from '../../render/escape.js';
import { renderLayout } from '../../render/layout.js';
import { panelUrl } from '../../core/profiler/profiler-urls.js';

/** One EXPLAIN's plan (PostgreSQL's lines, MySQL's rows as a table), or why there is none, with the way back to the panel. */
export function renderExplainPage(
  token: string,
  index: number,
  query: DatabaseQueryData,
  result: ExplainResult,
): string {
  const back = `<p><a href="${escapeHtml(`${panelUrl(token, 'db')}#query-${index + 1}`)}">Back to the Database panel</a></p>`;
  // A value redacted before storage is explained as the text "[REDACTED]": the plan may differ from the one the real value gets.
  const redacted = query.redacted?.length
    ? `<p class="muted db-explain-redacted">Explained with ${escapeHtml(query.redacted.join(', '))} as "[REDACTED]": ${query.redacted.length === 1 ? 'that value was' : 'those values were'} redacted before storage, and a plan can depend on the value.</p>`
    : '';
  const body = result.ok
    ? `<p class="muted">${escapeHtml(result.statement)}</p>${redacted}${planHtml(result.rows)}`
    : `<p class="err">${escapeHtml(result.message)}</p>${redacted}`;
  return renderLayout({
    title: `EXPLAIN query #${index + 1}`,
    body:
      `<div class="wrap"><h2>EXPLAIN of query #${index + 1}</h2><div class="card"><pre class="db-sql">${escapeHtml(String(query.sql ?? ''))}</pre></div>` +
      `<div class="card db-plan">${body}</div>${back}</div>`,
  });
}

function planHtml(rows: readonly unknown[]): string {
  const records = rows.filter((row): row is Record<string, unknown> => typeof row === 'object' && row !== null);
  if (records.length === 0) return '<p class="empty">The database returned no plan.</p>';
  const columns = Object.keys(records[0]);
  if (columns.length === 1)
    return `<pre class="db-plan-text">${escapeHtml(records.map((row) => String(row[columns[0]])).join('\n'))}</pre>`;
  const head = columns.map((c) => `<th>${escapeHtml(c)}</th>`).join('');
  const body = records
    .map(
      (row) =>
        `<tr>${columns.map((c) => `<td>${escapeHtml(row[c] === null || row[c] === undefined ? '' : String(row[c]))}</td>`).join('')}</tr>`,
    )
    .join('');
  return `<table class="db-plan-table"><thead><tr>${head}</tr></thead><tbody>${body}</tbody></table>`;
}
