import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { LogRecord, Profile } from '../../../../core/profiler/profile.js';
import { NOTIFIED_REF } from '../../../../core/profiler/notified-ref.js';
import { fromStoredForm, toStoredForm } from '../../../../core/profiler/storage/stored-form.js';
import { profile200, profile404 } from '../fixtures.js';

const TIME = 1_760_000_000_123.456;

/** A record as the dispatcher logs it after the call at [event, listener] of the events panel; unmarked without `call`. */
const notified = (time: number, event: string, listener: string, call?: [number, number]): LogRecord => {
  const record: LogRecord & { [NOTIFIED_REF]?: [number, number] } = {
    time,
    level: 'DEBUG',
    channel: 'event',
    message: `Notified event "${event}" to listener "${listener}".`,
    context: { event, listener },
  };
  if (call) record[NOTIFIED_REF] = call;
  return record;
};

/** A 200 as the kernel records it: each listener call in the events panel, and its "Notified event" record in the log. */
function kernelProfile(): Profile {
  const profile = profile200({ token: 'abc123', time: TIME });
  const calls: [string, string[]][] = [
    ['kernel.request', ['RouterListener::onKernelRequest', 'FirewallListener::onKernelRequest']],
    ['kernel.view', ['ViewListener::onKernelView']],
    ['kernel.response', ['ProfilerListener::onKernelResponse']],
    ['kernel.request', ['RouterListener::onKernelRequest']],
  ];
  profile.collectors.events.events = calls.map(([name, listeners]) => ({
    name,
    listeners: listeners.map((listener) => ({ listener, duration: 0.0123, stoppedPropagation: false })),
  }));
  const at = Math.floor(TIME);
  profile.collectors.log.records = [
    { time: at, level: 'INFO', channel: 'request', message: 'Matched route "hello".', context: { route: 'hello' } },
    notified(at, 'kernel.request', 'RouterListener::onKernelRequest', [0, 0]),
    notified(at + 1, 'kernel.request', 'FirewallListener::onKernelRequest', [0, 1]),
    notified(at + 1, 'kernel.view', 'ViewListener::onKernelView', [1, 0]),
    {
      time: at + 1,
      level: 'DEBUG',
      channel: 'event',
      message: 'Listener "ViewListener::onKernelView" stopped propagation of the event "kernel.view".',
      context: { event: 'kernel.view', listener: 'ViewListener::onKernelView' },
    },
    {
      ...notified(at + 2, 'kernel.response', 'ProfilerListener::onKernelResponse'),
      context: { event: 'kernel.response', listener: 'ProfilerListener::onKernelResponse', extra: 1 },
    },
    notified(at + 2, 'kernel.request', 'RouterListener::onKernelRequest', [3, 0]),
    notified(at + 3, 'kernel.request', 'RouterListener::onKernelRequest'),
  ];
  return profile;
}

const roundTrip = (profile: Profile) => fromStoredForm(JSON.parse(JSON.stringify(toStoredForm(profile))) as Profile);

const test = suite('the stored form of a profile');

test('when the log holds the "Notified event" records of the events panel, then they are stored as references and read back exactly', () => {
  const profile = kernelProfile();
  const original = JSON.parse(JSON.stringify(profile)) as Profile;
  const stored = toStoredForm(profile);
  const records = stored.collectors.log.records as unknown[];
  assert.equal(records.filter(Array.isArray), [
    [0, 0, 0],
    [0, 1, 1],
    [1, 0, 1],
    [3, 0, 2],
  ]);
  assert.ok(JSON.stringify(stored).length < JSON.stringify(profile).length - 200);
  assert.equal(JSON.parse(JSON.stringify(profile)), original, 'the profile itself is left alone');
  assert.equal(roundTrip(profile), original);
});

test('when a record was not marked by the dispatcher, then it is stored whole, however much it looks like a notification', () => {
  const profile = kernelProfile();
  const records = toStoredForm(profile).collectors.log.records as unknown[];
  assert.is(records.length, 8);
  assert.match((records[4] as LogRecord).message, /stopped propagation/);
  assert.equal((records[5] as LogRecord).context, {
    event: 'kernel.response',
    listener: 'ProfilerListener::onKernelResponse',
    extra: 1,
  });
  assert.match((records[7] as LogRecord).message, /kernel\.request/, 'an unmarked notification stays whole');
});

test('when nothing in the log can be shortened, then the very same profile is written; profiles of any shape read back unchanged', () => {
  const profile = profile404({ token: 'def456', time: TIME });
  const original = structuredClone(profile);
  assert.equal(roundTrip(profile), original);
  const plain = profile200({ token: 'aaa111', time: TIME });
  plain.collectors.log.records = [];
  assert.is(toStoredForm(plain), plain);
});

test.run();
