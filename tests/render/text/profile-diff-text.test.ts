import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { diffProfiles } from '../../../core/profiler/profile-diff.js';
import { renderProfileDiffText } from '../../../render/text/index.js';
import { notFoundProfile, sampleProfile } from './sample-profile.js';

const test = suite('renderProfileDiffText');

test('when the profiles differ, then differing rows are marked ≠ and the last line names the fields', () => {
  const text = renderProfileDiffText(diffProfiles(notFoundProfile(), sampleProfile()), { color: false });
  assert.match(text, /^≠ {2}status {14}404 .* 200$/m);
  assert.match(text, /^ {3}method {14}GET .* GET$/m);
  assert.ok(text.endsWith('\nThe profiles differ in: status, route, controller, exception classes, exception messages, log errors, log ERROR, log DEBUG\n'), text);
});

test('when only durations differ, then they are marked ~ and the profiles agree', () => {
  const slower = sampleProfile({ token: 'ffffff', duration: 99 });
  const text = renderProfileDiffText(diffProfiles(sampleProfile(), slower), { color: false });
  assert.match(text, /^~ {2}duration +12\.3 ms +99\.0 ms$/m);
  assert.not.match(text, /≠/);
  assert.ok(text.endsWith('\nThe profiles agree.\n'));
});

test('should head the value columns with the two tokens', () => {
  const text = renderProfileDiffText(diffProfiles(notFoundProfile(), sampleProfile()), { color: false });
  assert.match(text.split('\n')[0]!, /^ {3}Field {15}0f9e8d {2,}a1b2c3$/);
});

test('when color is false, then no ANSI codes', () => {
  assert.not.match(renderProfileDiffText(diffProfiles(notFoundProfile(), sampleProfile()), { color: false }), /\x1b/);
  assert.match(renderProfileDiffText(diffProfiles(notFoundProfile(), sampleProfile()), { color: true }), /\x1b\[31m≠/);
});

test.run();
