import type { ExceptionData, LogRecord } from '../core/profiler/profile.js';
import { renderExceptionChain } from './exception-chain.js';
import type { FrameOptions } from './frame-list.js';
import { plural } from './format.js';
import { logLevelGroup, renderLogTable } from './log-table.js';
import { renderStackTraces } from './stack-traces.js';

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

/**
 * What the debug error page and the profiler's exception panel both show: the
 * exception chain with its frames, the request's log, and the numbered stack traces.
 */
export function renderExceptionView(exception: ExceptionData, log: readonly LogRecord[], options: FrameOptions = {}): string {
  const count = exception.chain.length;
  return `<section><h2>${count > 1 ? `Exceptions <span class="b">${count}</span>` : 'Exception'}</h2>${renderExceptionChain(exception, options)}</section>`
    + `<section><h2>Logs <small class="muted">${logSummary(log)}</small></h2><div class="card">${renderLogTable(log)}</div></section>`
    + `<section><h2>Stack Traces${count > 1 ? ` <span class="b">${count}</span>` : ''}</h2><div class="card">${renderStackTraces(exception)}</div></section>`;
}
