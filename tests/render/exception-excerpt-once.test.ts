import { load, type CheerioAPI } from 'cheerio';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { ExceptionData, Frame } from '../../core/profiler/profile.js';
import { renderErrorPage } from '../../render/error-page.js';
import { renderExceptionPanel } from '../../render/html/panels/exception-panel.js';
import { notFoundErrorPage, serverErrorProfile } from './fixtures.js';

const test = suite(
  "exception view: each line of the app's code is shown in one excerpt, the other frames on it point there",
);

const excerpt = (start: number, length = 11) => ({
  start,
  lines: Array.from({ length }, (_, i) => `code of line ${start + i}`),
});
const app = (fn: string, line: number, start: number, file = 'src/inventory.ts'): Frame => ({
  function: fn,
  file,
  line,
  column: 3,
  kind: 'app',
  excerpt: excerpt(start),
});

/** Each excerpt line's number, as many times as the page shows it. */
function shownLines($: CheerioAPI): string[] {
  return $('pre.code > span > i')
    .map((_, el) => $(el).text().trim())
    .get();
}

function errorPage(exception: ExceptionData): CheerioAPI {
  return load(renderErrorPage({ ...notFoundErrorPage(), status: 500, statusText: 'Internal Server Error', exception }));
}

test("when a caller sits a few lines above the throw in the same file, then its line is marked in the throw's excerpt, not shown again", () => {
  const $ = errorPage(serverErrorProfile().collectors.exception!);
  const lines = shownLines($);
  assert.equal(lines, [...new Set(lines)], `a line shown twice: ${lines.join(' ')}`);
  const frames = $('.exc li.frame-app');
  assert.is(frames.eq(0).find('pre.code .hl > i').text().trim(), '10');
  assert.is(
    frames.eq(0).find('pre.code .call > i').text().trim(),
    '6',
    "the caller's line is marked in the excerpt that shows it",
  );
  assert.is(frames.eq(1).find('pre.code').length, 0);
  assert.ok(frames.eq(1).text().includes('src/inventory.ts line 6'), frames.eq(1).text());
  assert.ok(frames.eq(1).find('.excerpt-above').text().includes('code shown above'));
});

test("when a cause was thrown where the outer error was made, then the cause's frame shows no second excerpt", () => {
  const chain: ExceptionData['chain'] = [
    {
      class: 'HttpError',
      message: 'Could not load',
      status: 502,
      headers: {},
      frames: [app('load', 22, 17), app('controller', 40, 35)],
    },
    {
      class: 'Error',
      message: 'socket hang up',
      status: 500,
      headers: {},
      frames: [app('fetchStock', 20, 15), app('load', 21, 16), app('controller', 40, 35)],
    },
  ];
  const $ = errorPage({ chain });
  const lines = shownLines($);
  assert.equal(lines, [...new Set(lines)], `a line shown twice: ${lines.join(' ')}`);
  const cause = $('.exc').eq(1).find('li.frame-app');
  assert.is(cause.eq(0).find('pre.code').length, 0, 'line 20 is in the excerpt of line 22 above');
  assert.is(cause.eq(2).find('pre.code').length, 0, 'line 40 is shown above');
  assert.equal(
    $('.exc')
      .eq(0)
      .find('pre.code .call > i')
      .map((_, el) => $(el).text().trim())
      .get(),
    ['20', '21'],
  );
});

test('when two frames are in different files or far apart, then each keeps its own excerpt', () => {
  const $ = errorPage({
    chain: [
      {
        class: 'Error',
        message: 'x',
        status: 500,
        headers: {},
        frames: [app('a', 10, 5), app('b', 10, 5, 'src/other.ts'), app('c', 60, 55)],
      },
    ],
  });
  assert.is($('.exc li.frame-app pre.code').length, 3);
  assert.is($('.excerpt-above').length, 0);
});

test('when the exception panel shows the same profile, then it too shows each line once', () => {
  const $ = load(renderExceptionPanel(serverErrorProfile()));
  const lines = shownLines($);
  assert.ok(lines.length > 0);
  assert.equal(lines, [...new Set(lines)], `a line shown twice: ${lines.join(' ')}`);
});

test.run();
