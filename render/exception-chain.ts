import type { ExceptionData, ExceptionRecord } from '../core/profiler/profile.js';
import { escapeHtml } from './escape.js';
import { renderFrameList, type FrameOptions } from './frame-list.js';

function renderException(record: ExceptionRecord, index: number, options: FrameOptions): string {
  const causedBy = index > 0 ? '<div class="by">Caused by</div>' : '';
  return `<div class="card exc">${causedBy}<h3>${escapeHtml(record.class)}</h3>`
    + `<pre class="msg">${escapeHtml(record.message)}</pre>${renderFrameList(record.frames, options)}</div>`;
}

/** Each exception of the chain, outermost first: class, message, frames. */
export function renderExceptionChain(exception: ExceptionData, options: FrameOptions = {}): string {
  return exception.chain.map((record, i) => renderException(record, i, options)).join('');
}
