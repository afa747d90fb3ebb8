import { load } from 'cheerio';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { renderProfileSummary } from '../../../web-profiler/views/profile-summary.js';
import { okProfile } from '../../render/fixtures.js';

const test = suite('renderProfileSummary: the profiled URL');

test('should link the URL of a GET or HEAD request, which can be opened again', () => {
  for (const method of ['GET', 'HEAD']) {
    const $ = load(renderProfileSummary({ ...okProfile(), method }));
    assert.is($('h1 a').attr('href'), 'http://127.0.0.1:8000/hello/world?lang=en', method);
  }
});

test('should not link the URL of another method (opening it would be a GET the route may refuse), but the referer when there is one', () => {
  const profile = { ...okProfile(), method: 'POST' };
  profile.collectors.request.headers = { ...profile.collectors.request.headers, referer: 'http://127.0.0.1:8000/form' };
  const $ = load(renderProfileSummary(profile));
  assert.is($('h1').text().startsWith('http://127.0.0.1:8000/hello/world?lang=en'), true);
  assert.is($('h1 a[href="http://127.0.0.1:8000/hello/world?lang=en"]').length, 0);
  assert.is($('h1 a.referer').attr('href'), 'http://127.0.0.1:8000/form');
  const noReferer = load(renderProfileSummary({ ...okProfile(), method: 'DELETE' }));
  assert.is(noReferer('h1 a').length, 0);
});

test('should cut a URL longer than 160 characters, the whole URL in the link and its title', () => {
  const url = `http://127.0.0.1:8000/${'a'.repeat(3000)}?q=${'b'.repeat(2000)}`;
  const $ = load(renderProfileSummary({ ...okProfile(), url }));
  const link = $('h1 a');
  assert.is(link.text(), `${url.slice(0, 160)}\u2026`);
  assert.is(link.attr('href'), url);
  assert.is(link.attr('title'), url);
  const html = renderProfileSummary({ ...okProfile(), url });
  assert.ok(/^[\x00-\x7f]*$/.test(html), 'the page stays ASCII');
});

test.run();
