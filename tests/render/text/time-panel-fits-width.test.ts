import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { renderProfileText } from '../../../panels/profile-text.js';
import { visibleWidth } from '../../../render/text/fit.js';
import { sampleProfile } from './sample-profile.js';

const LONG_LISTENER = 'ProfilerListener::onKernelResponseWithAVeryLongNameIndeed';

function busyProfile() {
  const profile = sampleProfile();
  profile.collectors.events.events.push({
    name: 'kernel.response',
    listeners: [{ listener: LONG_LISTENER, duration: 1.5, start: 9, stoppedPropagation: false }],
  });
  profile.collectors.time.phases.push({ name: 'response', start: 10, duration: 2.34 });
  profile.collectors.time.spans = [
    { name: 'load the whole catalogue from the database, then price it', start: 3, duration: 4 },
  ];
  return profile;
}

const timelineLines = (text: string) => text.split('\n').filter((l) => /^(phase|listener|span) /.test(l));

for (const width of [80, 100]) {
  test(`time panel at ${width} columns: no line wider, long names cut with an ellipsis on one line, bars drawn`, () => {
    const text = renderProfileText(busyProfile(), 'time', { color: false, width });
    for (const line of text.split('\n'))
      assert.ok(visibleWidth(line) <= width, `${visibleWidth(line)} > ${width}: ${line}\n${text}`);
    const listener = timelineLines(text).find((l) => l.startsWith('listener  kernel.response'));
    assert.ok(listener, text);
    assert.match(listener, /… +\d+\.\d\d ms +\d+\.\d\d ms +█+$/);
    assert.is(timelineLines(text).length, 6, 'one line per row, nothing wrapped');
  });
}

test('time panel with room to spare keeps the 40-cell timeline and whole names', () => {
  const text = renderProfileText(busyProfile(), 'time', { color: false, width: 200 });
  assert.ok(text.includes(`kernel.response · ${LONG_LISTENER}`), text);
  const controller = timelineLines(text).find((l) => l.startsWith('phase     controller'))!;
  const bar = controller.slice(controller.lastIndexOf('ms') + 2);
  assert.is(bar.length - 2, Math.round((2 / 12.34) * 40) + Math.round((8 / 12.34) * 40));
});

test.run();
