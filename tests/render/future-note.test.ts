import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { futureNote } from '../../render/format.js';
import { renderProfileText } from '../../panels/profile-text.js';
import { renderProfilePage } from '../../web-profiler/views/profile-page.js';
import { profile200 } from '../core/profiler/fixtures.js';

const test = suite("a profile dated ahead of the reader's clock is shown with a note");
const NOW = 1_800_000_000_000;

test('when a time is more than a minute ahead, then the note says by how much; else there is none', () => {
  assert.is(futureNote(NOW + 30_000, NOW), null, 'half a minute is ordinary skew');
  assert.is(futureNote(NOW - 86_400_000, NOW), null);
  assert.is(futureNote(NOW + 5 * 60_000, NOW), 'dated 5 min ahead of this clock');
  assert.is(futureNote(NOW + 3 * 3_600_000, NOW), 'dated 3 h ahead of this clock');
  assert.is(futureNote(NOW + 10 * 86_400_000, NOW), 'dated 10 days ahead of this clock');
  assert.is(futureNote(NOW + 10 * 365.25 * 86_400_000, NOW), 'dated 10 years ahead of this clock');
  assert.is(
    futureNote(NOW + 10 * 86_400_000, undefined),
    null,
    'no clock given, no note: the same profile renders the same anywhere',
  );
});

test('when the profile page and the terminal header show a profile ten years ahead, then both carry the note', () => {
  const profile = profile200({ token: 'fff001', time: NOW + 10 * 365.25 * 86_400_000 });
  assert.match(
    renderProfilePage(profile, { panel: 'request', now: NOW }),
    /class="future-note">\(dated 10 years ahead of this clock\)/,
  );
  assert.not.match(renderProfilePage(profile, { panel: 'request' }), /future-note"/);
  assert.match(
    renderProfileText(profile, 'request', { color: false, now: NOW }),
    /Time .*, dated 10 years ahead of this clock/,
  );
});

test.run();
