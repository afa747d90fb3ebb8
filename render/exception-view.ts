import type { ExceptionData, LogRecord } from '../core/profiler/profile.js';
import { escapeHtml } from './escape.js';
import { renderExceptionChain } from './exception-chain.js';
import type { FrameOptions } from './frame-list.js';
import { plural } from './format.js';
import { logLevelGroup } from './log-table.js';
import { renderQuietLog } from './quiet-log.js';
import { renderStackTraces } from './stack-traces.js';

export interface ExceptionViewOptions extends FrameOptions {
  /** the profile's log panel, and that panel with the event records shown: linked instead of listing the whole log */
  logPanel?: { href: string; eventsHref: string } | null;
}

function logSummary(log: readonly LogRecord[]): string {
  let errors = 0;
  let warnings = 0;
  for (const record of log) {
    const group = logLevelGroup(record.level);
    if (group === 'error') errors++;
    else if (group === 'warning') warnings++;
  }
  const counts = [plural(log.length, 'message')];
  if (errors) counts.push(`<span class="b err">${plural(errors, 'error')}</span>`);
  if (warnings) counts.push(`<span class="b warn">${plural(warnings, 'warning')}</span>`);
  return counts.join(' ');
}

function renderLogSection(log: readonly LogRecord[], logPanel: ExceptionViewOptions['logPanel']): string {
  const link = logPanel ? ` <a class="log-panel" href="${escapeHtml(logPanel.href)}">Log panel</a>` : '';
  return (
    `<section><h2>Logs <small class="muted">${logSummary(log)}</small>${link}</h2>` +
    `<div class="card">${renderQuietLog(log, logPanel ? { href: logPanel.eventsHref } : null)}</div></section>`
  );
}

/**
 * What the debug error page and the profiler's exception panel both show: the
 * exception chain with its frames, the request's log (the event records folded), and the
 * numbered stack traces.
 */
export function renderExceptionView(
  exception: ExceptionData,
  log: readonly LogRecord[],
  options: ExceptionViewOptions = {},
): string {
  const count = exception.chain.length;
  return (
    `<section><h2>${count > 1 ? `Exceptions <span class="b">${count}</span>` : 'Exception'}</h2>${renderExceptionChain(exception, options)}</section>` +
    renderLogSection(log, options.logPanel) +
    `<section><h2>Stack Traces${count > 1 ? ` <span class="b">${count}</span>` : ''}</h2><div class="card">${renderStackTraces(exception)}</div></section>`
  );
}
