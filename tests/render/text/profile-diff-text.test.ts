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
  assert.ok(
    text.endsWith(
      '\nThe profiles differ in: status, route, controller, exception classes, exception messages, log errors, log ERROR, log DEBUG\n',
    ),
    text,
  );
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

test('when rows are marked, then the rule starts where the header does and a legend names the markers shown', () => {
  const text = renderProfileDiffText(diffProfiles(notFoundProfile(), sampleProfile({ duration: 99 })), {
    color: false,
  });
  const [header, rule] = text.split('\n');
  assert.is(rule!.indexOf('-'), header!.indexOf('Field'));
  assert.match(text, /^≠ differs {3}~ differs, not counted \(timings, events called, HTML page sizes\)$/m);
  const slower = renderProfileDiffText(
    diffProfiles(sampleProfile(), sampleProfile({ token: 'ffffff', duration: 99 })),
    { color: false },
  );
  assert.match(slower, /^~ differs, not counted/m);
  const same = renderProfileDiffText(diffProfiles(sampleProfile(), sampleProfile()), { color: false });
  assert.not.match(same, /differs/);
});

test('when the terminal is 80 columns wide, then long values wrap in their own column and no line is wider', () => {
  const text = renderProfileDiffText(diffProfiles(notFoundProfile(), sampleProfile()), { color: false, width: 80 });
  const lines = text.split('\n');
  assert.ok(
    lines.every((l) => [...l].length <= 80),
    text,
  );
  const at = lines[0]!.indexOf('0f9e8d');
  const message = lines.findIndex((l) => /^≠ {2}exception messages/.test(l));
  assert.ok(lines[message + 1]!.slice(0, at).trim() === '' && lines[message + 1]!.slice(at).trim() !== '', text);
});

test.run();
