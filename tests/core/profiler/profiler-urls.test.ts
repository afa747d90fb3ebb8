import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { isProfilerPath, panelUrl, PROFILER_HOME_URL, profileUrl } from '../../../core/profiler/profiler-urls.js';

const test = suite("the profiler's addresses are made in one place");

test("when a profile's address is made, then the token is percent-encoded into it", () => {
  assert.is(profileUrl('a1b2c3'), '/_profiler/a1b2c3');
  assert.is(profileUrl('a/b?c'), '/_profiler/a%2Fb%3Fc');
});

test("when a panel's address is made, then it names the panel of the request's profile", () => {
  assert.is(panelUrl('a1b2c3', 'log'), '/_profiler/a1b2c3?panel=log&type=request');
});

test('when the first page is asked for, then it is the search for the newest ten', () => {
  assert.is(PROFILER_HOME_URL, '/_profiler/search?limit=10');
});

test("when a path is checked, then /_profiler and what is below it are the profiler's, a longer name is not", () => {
  for (const path of ['/_profiler', '/_profiler/', '/_profiler/search', '/_profiler/a1b2c3.json'])
    assert.ok(isProfilerPath(path), path);
  for (const path of ['/', '/_profilerx', '/_profile', '/app/_profiler']) assert.not.ok(isProfilerPath(path), path);
});

test.run();
