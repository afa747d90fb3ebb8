import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { LogRecord } from '../../core/profiler/profile.js';
import { renderLogTable } from '../../render/log-table.js';

const test = suite(
  'renderLogTable: a frozen context shared by records, or a context with JSON met before, rendered once',
);

const record = (time: number, message: string, context: Record<string, unknown>): LogRecord => ({
  time,
  level: 'DEBUG',
  channel: 'event',
  message,
  context,
});

test('given records sharing a frozen context, when rendered, then each row is what an unfrozen copy gives, with its own time', () => {
  const shared = Object.freeze({ event: 'kernel.request', listener: 'A<b>::on "x"' });
  for (const time of [1_700_000_000_000, 1_700_000_000_123]) {
    const rows = renderLogTable([record(time, 'Notified <event>.', shared)]);
    assert.is(rows, renderLogTable([record(time, 'Notified <event>.', { ...shared })]));
    assert.not.match(rows, /<b>/);
  }
});

test('given another message or channel with the same frozen context, when rendered, then the row shows its own', () => {
  const shared = Object.freeze({ event: 'kernel.view' });
  renderLogTable([record(1, 'first', shared)]);
  assert.match(renderLogTable([record(1, 'second', shared)]), /second/);
  assert.match(renderLogTable([{ ...record(1, 'second', shared), channel: 'app' }]), /<td>app<\/td>/);
});

test('given a frozen context holding an object, when that object changes, then the row shows the change', () => {
  const inner = { count: 1 };
  const shared = Object.freeze({ inner });
  assert.match(renderLogTable([record(1, 'm', shared)]), /&quot;count&quot;:1/);
  inner.count = 2;
  assert.match(renderLogTable([record(1, 'm', shared)]), /&quot;count&quot;:2/);
});

test('given contexts made anew with the same JSON, when rendered, then the same cells; another value, a BigInt or a cycle shows as such', () => {
  const uncaught = (status: number) => ({
    exception: { class: 'NotFoundHttpError', message: 'No route <found>', status },
  });
  const first = renderLogTable([record(1, 'Uncaught', uncaught(404))]);
  assert.is(renderLogTable([record(1, 'Uncaught', uncaught(404))]), first);
  assert.match(first, /&quot;status&quot;:404/);
  assert.not.match(first, /<found>/);
  assert.match(renderLogTable([record(1, 'Uncaught', uncaught(405))]), /&quot;status&quot;:405/);
  assert.match(renderLogTable([record(1, 'm', { big: 10n })]), /&quot;10n&quot;/);
  const cycle: Record<string, unknown> = { name: 'loop' };
  cycle.self = cycle;
  assert.match(renderLogTable([record(1, 'm', cycle)]), /value that cannot be shown as JSON/);
});

test.run();
