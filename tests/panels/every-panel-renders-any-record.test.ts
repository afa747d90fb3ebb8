import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { RESERVED_PANEL_NAMES } from '../../core/app/app-panel.js';
import type { Profile } from '../../core/profiler/profile.js';
import { BUILT_IN_PANELS } from '../../panels/built-in-panels.js';
import { renderProfileText } from '../../panels/profile-text.js';
import { profilePanels } from '../../panels/registry.js';
import { renderProfilePage } from '../../web-profiler/views/profile-page.js';
import { fullProfile } from './full-profile.js';

// Every registered panel renders a record with any optional field missing, alone or all
// together, in its HTML and its text view. A path's "[]" means every element of that list.

const OPTIONAL: Record<string, string[]> = {
  request: [
    'server',
    'body',
    'route',
    'controller',
    'response.size',
    'response.contentType',
    'response.title',
    'response.structure',
    'response.body',
  ].map((field) => `collectors.request.${field}`),
  time: ['collectors.time.spans', 'collectors.time.spans[].duration', 'collectors.time.memory'],
  exception: [
    'collectors.exception',
    ...['file', 'line', 'column', 'excerpt'].map((field) => `collectors.exception.chain[].frames[].${field}`),
  ],
  log: ['collectors.log.records[].time', 'collectors.log.records[].context'],
  events: ['collectors.events.events[].listeners[].start'],
  router: ['route', 'redirect', 'explain', 'definition'].map((field) => `collectors.router.${field}`),
  security: ['collectors.security.rule', 'collectors.security.message'],
  http_client: [
    'collectors.http_client',
    ...[
      'duration',
      'status',
      'requestSize',
      'responseSize',
      'error',
      'headersAfter',
      'bodyUnread',
      'body',
      'profile',
    ].map((field) => `collectors.http_client.calls[].${field}`),
  ],
  db: [
    'collectors.db',
    'collectors.db.slowMs',
    'collectors.db.repeated[].frame.file',
    'collectors.db.repeated[].frame.line',
    ...[
      'duration',
      'rows',
      'error',
      'frame',
      'frame.file',
      'frame.line',
      'database.host',
      'database.port',
      'database.name',
      'database.user',
    ].map((field) => `collectors.db.queries[].${field}`),
  ],
  dump: [
    'collectors.dump',
    'collectors.dump.dumps[].file',
    'collectors.dump.dumps[].line',
    'collectors.dump.dumps[].time',
  ],
  config: ['collectors.config', 'collectors.config.app', 'collectors.config.appFile', 'collectors.config.store'],
  cache: ['collectors.custom.cache.rows[]'],
};

/** A field missing: its key gone, or (`null`) kept with no value, as older and partial records hold it. */
type Missing = 'absent' | 'null';

function drop(target: unknown, path: string[], missing: Missing): void {
  if (target === null || typeof target !== 'object') return;
  const [head, ...rest] = path;
  if (head.endsWith('[]')) {
    const list = (target as Record<string, unknown>)[head.slice(0, -2)];
    if (!Array.isArray(list)) return;
    if (rest.length === 0)
      list.forEach((item, i) => {
        if (Array.isArray(item)) list[i] = [];
      });
    else for (const item of list) drop(item, rest, missing);
  } else if (rest.length > 0) {
    drop((target as Record<string, unknown>)[head], rest, missing);
  } else if (missing === 'null') {
    (target as Record<string, unknown>)[head] = null;
  } else {
    delete (target as Record<string, unknown>)[head];
  }
}

function without(paths: string[], missing: Missing): Profile {
  const profile = fullProfile();
  for (const path of paths) drop(profile, path.split('.'), missing);
  return profile;
}

const SENSELESS = /\bundefined\b|\bNaN\b|\[object Object\]|Invalid Date/;

const test = suite('every registered panel renders a profile with any optional field of its data missing');

test("when the table is read, then it names every registered panel, the app's own included, and no other", () => {
  assert.equal(
    Object.keys(OPTIONAL).sort(),
    profilePanels(fullProfile())
      .map((panel) => panel.name)
      .sort(),
  );
});

test("when an app names a panel, then the names it may not take are exactly the built-in panels' names and aliases", () => {
  assert.equal(
    [...RESERVED_PANEL_NAMES].sort(),
    BUILT_IN_PANELS.flatMap((panel) => [panel.name, ...panel.aliases]).sort(),
  );
});

for (const [name, paths] of Object.entries(OPTIONAL)) {
  const cases: [string, string[]][] = [
    ...paths.map((path): [string, string[]] => [path, [path]]),
    ['all of them', paths],
  ];
  for (const [label, dropped] of cases) {
    for (const missing of ['absent', 'null'] as const) {
      test(`when the ${name} panel's ${label} is ${missing}, then its page and its terminal text render without a senseless word`, () => {
        const profile = without(dropped, missing);
        const panel = profilePanels(profile).find((p) => p.name === name)!;
        const html = renderProfilePage(profile, { panel: name });
        const text = renderProfileText(profile, name, { color: false, width: 100 });
        assert.match(html, /<main>.*<h2>/s, `${name} page: no heading in its main`);
        assert.ok(text.split('\n').length > 6, `${name} text: only the header`);
        for (const [view, output] of [
          ['page', html],
          ['text', text],
        ]) {
          assert.not.match(
            output,
            SENSELESS,
            `${name} ${view}: ${output.match(new RegExp(`.{0,60}(${SENSELESS.source}).{0,20}`))?.[0]}`,
          );
        }
        assert.ok(
          panel.badges(profile).every((badge) => !SENSELESS.test(badge.text)),
          `${name} badge`,
        );
      });
    }
  }
}

test("when the profile itself has no time or duration, then every panel's page and text still render, the time said unknown", () => {
  const profile = fullProfile() as unknown as Record<string, unknown>;
  delete profile.time;
  delete profile.duration;
  for (const panel of profilePanels(profile as unknown as Profile)) {
    const text = renderProfileText(profile as unknown as Profile, panel.name, { color: false });
    assert.match(text, /^Time +unknown time/m);
    assert.not.match(text + renderProfilePage(profile as unknown as Profile, { panel: panel.name }), SENSELESS);
  }
});

test.run();
