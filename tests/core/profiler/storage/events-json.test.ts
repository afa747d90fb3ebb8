import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { EventsData } from '../../../../core/profiler/profile.js';
import { eventsJson } from '../../../../core/profiler/storage/events-json.js';

const test = suite("the events panel's JSON is written field by field, as JSON.stringify writes it");

const call = (listener: string, duration: number, start?: number) =>
  start === undefined
    ? { listener, duration, stoppedPropagation: false }
    : { listener, duration, stoppedPropagation: duration > 1, start };

test("when the panel has the events collector's shape, then its text is JSON.stringify's, names escaped and numbers as JSON writes them", () => {
  const panels: EventsData[] = [
    { events: [] },
    { events: [{ name: 'kernel.request', listeners: [] }] },
    {
      events: [
        {
          name: 'kernel.request',
          listeners: [call('RouterListener::onKernelRequest', 0.60834, 2.86062), call('Firewall', 1.5, 0)],
        },
        {
          name: 'kernel "quoted" \\ \n\u2028 ✓ \ud800',
          listeners: [call('<script>"x"</script>', -0, 1e-7), call('old profile, no start', 3)],
        },
        {
          name: 'numbers',
          listeners: [
            call('nan', Number.NaN, Number.POSITIVE_INFINITY),
            call('big', 1e21, 123456789.123456),
            call('tiny', 5e-324, -2.5),
          ],
        },
      ],
    },
  ];
  for (const panel of panels) assert.is(eventsJson(panel), JSON.stringify(panel));
});

test('when the panel is of another shape, then it is left to JSON.stringify', () => {
  const other = (value: unknown) => eventsJson(value as EventsData);
  assert.is(other(null), undefined);
  assert.is(other({ events: [], extra: 1 }), undefined);
  assert.is(other({ events: [{ listeners: [], name: 'reordered' }] }), undefined);
  assert.is(
    other({ events: [{ name: 'e', listeners: [{ listener: 'l', duration: '1', stoppedPropagation: false }] }] }),
    undefined,
  );
  assert.is(
    other({
      events: [{ name: 'e', listeners: [{ duration: 1, listener: 'l', stoppedPropagation: false, start: 0 }] }],
    }),
    undefined,
  );
  assert.is(
    other({
      events: [
        {
          name: 'e',
          listeners: [{ listener: 'l', duration: 1, stoppedPropagation: false, start: 0, toJSON: () => 'x' }],
        },
      ],
    }),
    undefined,
  );
  class Call {
    listener = 'l';
    duration = 1;
    stoppedPropagation = false;
    toJSON() {
      return 'mine';
    }
  }
  assert.is(other({ events: [{ name: 'e', listeners: [new Call()] }] }), undefined);
  assert.is(other({ events: [{ name: 'e', listeners: [undefined] }] }), undefined);
});

test.run();
