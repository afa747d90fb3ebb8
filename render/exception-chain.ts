import type { ExceptionData, ExceptionRecord } from '../core/profiler/profile.js';
import { reasonPhrase } from '../core/http/response.js';
import { escapeHtml } from './escape.js';
import { type ExcerptPlan, planExcerpts } from './excerpt-plan.js';
import { renderFrameList, type FrameOptions } from './frame-list.js';

function renderException(
  record: ExceptionRecord,
  index: number,
  options: FrameOptions,
  plan: ExcerptPlan | undefined,
): string {
  const causedBy = index > 0 ? '<div class="by">Caused by</div>' : '';
  return (
    `<div class="card exc">${causedBy}<h3>${escapeHtml(record.class)}</h3>${renderStatus(record, index)}` +
    `<pre class="msg">${escapeHtml(record.message)}</pre>${renderFrameList(record.frames, options, plan)}</div>`
  );
}

/**
 * The outermost exception's status code and headers (SPEC.md's exception record: a 404's headers
 * are none, a 405's hold Allow); a cause's only when it has headers of its own.
 */
function renderStatus(record: ExceptionRecord, index: number): string {
  // &middot;, not the character: a page all ASCII takes the fast paths of UTF-8 encoding and of the hand-off.
  const headers = Object.entries(record.headers);
  if (index > 0 && headers.length === 0) return '';
  const shown =
    headers.length === 0
      ? 'no headers'
      : headers.map(([name, value]) => `${escapeHtml(name)}: ${escapeHtml(value)}`).join(' &middot; ');
  return `<p class="cls exc-status">Status code ${record.status} ${escapeHtml(reasonPhrase(record.status))} &middot; ${shown}</p>`;
}

/** Each exception of the chain, outermost first: class, status code and headers, message, frames (each line of code shown once). */
export function renderExceptionChain(exception: ExceptionData, options: FrameOptions = {}): string {
  const plans = planExcerpts(exception.chain.map((record) => record.frames));
  return exception.chain.map((record, i) => renderException(record, i, options, plans[i])).join('');
}
