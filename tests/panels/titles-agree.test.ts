import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { load } from 'cheerio';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { openFileStorage } from '../../core/profiler/storage/file-storage.js';
import { renderProfileText } from '../../panels/profile-text.js';
import { builtInPanel, profilePanels } from '../../panels/registry.js';
import { renderProfilePage } from '../../web-profiler/views/profile-page.js';
import { renderToolbar } from '../../web-profiler/views/toolbar.js';
import { runAppInProcess } from '../helpers/cli.js';
import { fullProfile } from './full-profile.js';
import { storedEntry } from '../../core/profiler/storage/stored-entry.js';

// The page and the terminal agree on every title, both taken from the registry.
// A title "A / B" names a panel of two sections, A then B: its first heading is A.

const test = suite("the menu, the page, the terminal, --panel and the toolbar use the registry's title of each panel");
const profile = fullProfile();
const panels = profilePanels(profile);
const firstPart = (title: string): string => title.split(' / ')[0];

/** The first `Title\n-----` heading of a panel's terminal text. */
function firstTextHeading(text: string): string | undefined {
  const lines = text.split('\n');
  const at = lines.findIndex((line, i) => i > 0 && /^-+$/.test(line) && line.length === lines[i - 1].length);
  return at === -1 ? undefined : lines[at - 1];
}

test("when each panel's page is rendered, then its menu entry, its <title> and its first heading read the panel's title", () => {
  for (const panel of panels) {
    const $ = load(renderProfilePage(profile, { panel: panel.name }));
    assert.is($('ul.menu a[aria-current="page"] span').first().text(), panel.title, `${panel.name}: menu`);
    assert.ok($('title').text().startsWith(`${panel.title} · `), `${panel.name}: <title> ${$('title').text()}`);
    assert.ok(
      $('main h2').first().text().startsWith(firstPart(panel.title)),
      `${panel.name}: page heading ${$('main h2').first().text()}`,
    );
  }
});

test("when each panel is shown as terminal text, then its first heading reads the panel's title", () => {
  for (const panel of panels) {
    const heading = firstTextHeading(renderProfileText(profile, panel.name, { color: false }));
    assert.ok(heading?.startsWith(firstPart(panel.title)), `${panel.name}: terminal heading ${heading}`);
  }
});

test("when the toolbar is rendered, then each section's details and link read its panel's title", () => {
  const $ = load(
    renderToolbar({
      token: 'abc123',
      status: 500,
      method: 'GET',
      route: 'boom',
      controller: 'boom',
      duration: 3,
      log: { ERROR: 1 },
      exceptions: ['Error'],
      security: { decision: 'denied', rule: '^/boom' },
      listeners: 4,
      outgoing: { count: 1, total: 2 },
    }),
  );
  const sections = $('.ak-s[data-panel]').not('[data-panel="fetch"]');
  assert.is(sections.length, 6);
  sections.each((_, section) => {
    const title = builtInPanel($(section).attr('data-panel')!)!.title;
    assert.is($(section).find('.ak-det > b').text(), title);
    assert.is($(section).find('.ak-more a').text(), `${title} panel`);
  });
});

test('when `app profiles show --panel` is given a name the profile has not, then the choices it lists are every panel with its title', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'appkernel-titles-'));
  try {
    const storage = await openFileStorage({ dir });
    storage.writeBatch([storedEntry(profile)]);
    await storage.close();
    const r = await runAppInProcess(['profiles', 'show', profile.token, '--panel', 'nope', '--store', dir]);
    assert.is(r.code, 2, r.stderr);
    const choices = panels.map((panel) => `${panel.name} (${panel.title})`).join(', ');
    assert.ok(r.stderr.includes(`Allowed choices are ${choices}.`), r.stderr);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test.run();
