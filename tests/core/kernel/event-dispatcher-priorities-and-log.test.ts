import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { Request } from '../../../core/http/request.js';
import { EventDispatcher } from '../../../core/kernel/event-dispatcher.js';
import { KernelEvent } from '../../../core/kernel/kernel-event.js';
import { NO_TRACE, RecordingTrace } from '../../../core/kernel/request-trace.js';

const request = (): Request => new Request({ method: 'GET', target: '/x', headers: { host: '127.0.0.1:8000' } });

/** The event of a debug kernel (its trace records), or of a `--no-debug` one (NO_TRACE). */
const eventOf = (r: Request, traced = true): KernelEvent =>
  new KernelEvent(r, traced ? new RecordingTrace(r.start, r.log.sink) : NO_TRACE);

/** A dispatcher whose listeners append their name to `calls`; `stopper` stops propagation. */
function dispatcherWith(
  calls: string[],
  listeners: [name: string, priority: number][],
  stopper?: string,
): EventDispatcher {
  const d = new EventDispatcher();
  for (const [name, priority] of listeners) {
    d.addListener(
      'kernel.request',
      name,
      (event) => {
        calls.push(name);
        if (name === stopper) event.stopPropagation();
      },
      priority,
    );
  }
  return d;
}

const eventLog = (r: Request) => r.log.records.filter((rec) => rec.channel === 'event');

const test = suite('EventDispatcher: priorities, and one DEBUG record per listener call on channel event');

test('when listeners have priorities, then they run from the highest down, ties in registration order', async () => {
  const calls: string[] = [];
  const d = dispatcherWith(calls, [
    ['low', -10],
    ['firstZero', 0],
    ['high', 32],
    ['secondZero', 0],
    ['mid', 8],
  ]);
  await d.dispatch('kernel.request', eventOf(request()));
  assert.equal(calls, ['high', 'mid', 'firstZero', 'secondZero', 'low']);
  assert.equal(
    d.listeners('kernel.request').map((l) => l.name),
    calls,
  );
});

test('when an async listener is dispatched, then the next one waits for it', async () => {
  const calls: string[] = [];
  const d = new EventDispatcher();
  d.addListener(
    'e',
    'slow',
    async () => {
      await new Promise((r) => setTimeout(r, 10));
      calls.push('slow');
    },
    10,
  );
  d.addListener(
    'e',
    'fast',
    () => {
      calls.push('fast');
    },
    0,
  );
  await d.dispatch('e', eventOf(request()));
  assert.equal(calls, ['slow', 'fast']);
});

test('when each listener is called, then it is logged at DEBUG on channel event as Notified event "<event>" to listener "<listener>".', async () => {
  const r = request();
  await dispatcherWith(
    [],
    [
      ['A::on', 1],
      ['B::on', 0],
    ],
  ).dispatch('kernel.request', eventOf(r));
  const records = eventLog(r);
  assert.equal(
    records.map((rec) => rec.message),
    ['Notified event "kernel.request" to listener "A::on".', 'Notified event "kernel.request" to listener "B::on".'],
  );
  for (const rec of records) {
    assert.is(rec.level, 'DEBUG');
    assert.type(rec.time, 'number');
  }
});

test('when a listener stops propagation, then that is logged as Listener "<listener>" stopped propagation of the event "<event>". and later listeners are not called', async () => {
  const r = request();
  const calls: string[] = [];
  await dispatcherWith(
    calls,
    [
      ['A::on', 2],
      ['B::on', 1],
      ['C::on', 0],
    ],
    'B::on',
  ).dispatch('kernel.request', eventOf(r));
  assert.equal(calls, ['A::on', 'B::on']);
  const messages = eventLog(r).map((rec) => rec.message);
  const notified = messages.indexOf('Notified event "kernel.request" to listener "B::on".');
  const stopped = messages.indexOf('Listener "B::on" stopped propagation of the event "kernel.request".');
  assert.ok(notified !== -1 && stopped === notified + 1, messages.join('\n'));
  assert.not.ok(messages.includes('Notified event "kernel.request" to listener "C::on".'));
  assert.ok(eventLog(r).every((rec) => rec.level === 'DEBUG'));
});

test('when an event has no listener, then nothing is called or logged', async () => {
  const r = request();
  const event = await new EventDispatcher().dispatch('kernel.finish_request', eventOf(r));
  assert.instance(event, KernelEvent);
  assert.is(eventLog(r).length, 0);
});

test('when the request is not traced (no debug), then the same listeners run in the same order and stop the same way', async () => {
  const r = request();
  const calls: string[] = [];
  await dispatcherWith(
    calls,
    [
      ['low', -1],
      ['high', 5],
      ['zero', 0],
    ],
    'zero',
  ).dispatch('kernel.request', eventOf(r, false));
  assert.equal(calls, ['high', 'zero']);
  assert.is(eventLog(r).length, 0, 'nothing is logged');
});

test.run();
