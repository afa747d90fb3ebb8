import type { ExceptionData, ExceptionRecord } from '../core/profiler/profile.js';
import { escapeHtml } from './escape.js';
import { renderFrameList } from './frame-list.js';

function renderException(record: ExceptionRecord, index: number): string {
  const causedBy = index > 0 ? '<div class="by">Caused by</div>' : '';
  return `<div class="card exc">${causedBy}<h3>${escapeHtml(record.class)}</h3>`
    + `<pre class="msg">${escapeHtml(record.message)}</pre>${renderFrameList(record.frames)}</div>`;
}

/** Each exception of the chain, outermost first: class, message, frames. */
export function renderExceptionChain(exception: ExceptionData): string {
  return exception.chain.map(renderException).join('');
}
