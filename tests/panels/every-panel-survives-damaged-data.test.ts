import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { Profile } from '../../core/profiler/profile.js';
import { storedProfileProblem } from '../../core/profiler/storage/stored-profile-reader.js';
import { renderProfileText } from '../../panels/profile-text.js';
import { profilePanels } from '../../panels/registry.js';
import { renderProfilePage } from '../../web-profiler/views/profile-page.js';
import { fullProfile } from './full-profile.js';

// A store is input: a planted row, or a record of a form this build does not know, can hold any JSON
// where a panel expects its own shape. Every field of every panel's data (a list's first element
// standing for all) is set to each wrong kind of value in turn: the read refuses the profile
// (storedProfileProblem, a 422 page and a one-line CLI error), or every panel's page and text
// render, a panel that cannot show its data saying so.

const WRONG: unknown[] = [5, 'x', true, null, [], [5], {}];

type Path = (string | number)[];

function fieldPaths(value: unknown, at: Path, out: Path[]): Path[] {
  out.push(at);
  if (Array.isArray(value)) {
    if (value.length > 0) fieldPaths(value[0], [...at, 0], out);
  } else if (value !== null && typeof value === 'object') {
    for (const [key, field] of Object.entries(value)) fieldPaths(field, [...at, key], out);
  }
  return out;
}

function withValue(profile: Profile, path: Path, value: unknown): Profile {
  const copy = structuredClone(profile) as unknown as Record<string | number, unknown>;
  let target = copy;
  for (const key of path.slice(0, -1)) target = target[key] as Record<string | number, unknown>;
  target[path[path.length - 1]] = value;
  return copy as unknown as Profile;
}

const test = suite('every panel survives damaged stored data: the profile is refused, or each view renders');
const base = fullProfile();
const paths = fieldPaths(base.collectors, ['collectors'], []);

test('when every field of every panel holds each wrong kind of value, then nothing throws past the read', () => {
  const thrown: string[] = [];
  let rendered = 0;
  for (const path of paths) {
    for (const wrong of WRONG) {
      const profile = withValue(base, path, wrong);
      if (storedProfileProblem(profile) !== null) continue;
      for (const panel of profilePanels(profile)) {
        for (const [view, render] of [
          ['page', () => renderProfilePage(profile, { panel: panel.name })],
          ['text', () => renderProfileText(profile, panel.name, { color: false, width: 100 })],
        ] as const) {
          try {
            render();
            rendered++;
          } catch (error) {
            thrown.push(`${path.join('.')} = ${JSON.stringify(wrong)}, ${panel.name} ${view}: ${error}`);
          }
        }
      }
    }
  }
  assert.equal(thrown.slice(0, 10), [], `${thrown.length} views threw`);
  assert.ok(rendered > paths.length * 10, `${rendered} views rendered`);
});

test('when a panel cannot show its data, then its page, its text and its badge say it is damaged, and the other panels render', () => {
  const profile = withValue(base, ['collectors', 'events', 'events'], null);
  const page = renderProfilePage(profile, { panel: 'events' });
  assert.match(page, /<h2>Events<\/h2>.*The stored data of the Events panel is damaged/s);
  assert.match(page, /Events<\/span><span><span class="b err">!<\/span>/);
  const text = renderProfileText(profile, 'events', { color: false });
  assert.match(text, /^Events\n-+\nThe stored data of the Events panel is damaged .*\(.+\)\.$/m);
  assert.not.match(renderProfilePage(profile, { panel: 'log' }), /is damaged/);
});

test('when the request panel, its headers or its response, or an app panel, is not an object, then the read refuses the profile naming it', () => {
  const cases: [Path, unknown, RegExp][] = [
    [['collectors', 'request'], 5, /its request panel is not an object/],
    [['collectors', 'request', 'headers'], null, /headers are not an object/],
    [['collectors', 'request', 'response'], [], /response is not an object/],
    [['collectors', 'custom'], 'x', /app's panels are not an object/],
    [['collectors', 'custom', 'cache'], { rows: [] }, /app panel "cache" has no title/],
  ];
  for (const [path, value, problem] of cases)
    assert.match(storedProfileProblem(withValue(base, path, value)) ?? 'accepted', problem);
});

test.run();
