import { load } from 'cheerio';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { injectToolbar, renderToolbar, type ToolbarData } from '../../../web-profiler/views/toolbar.js';

const data: ToolbarData = { token: 'a1b2c3', status: 404, route: null, duration: 3.456, logErrors: 1, logWarnings: 0, method: 'GET' };

const test = suite('renderToolbar');

test('should be #appkernel-toolbar, fixed at the bottom, linking to /_profiler/<token>, without script', () => {
  const $ = load(renderToolbar(data));
  const bar = $('#appkernel-toolbar.appkernel-toolbar');
  assert.is(bar.length, 1);
  assert.match(bar.attr('style') ?? '', /position:fixed;.*bottom:0/);
  assert.ok(bar.find('a[href="/_profiler/a1b2c3"]').length >= 1);
  assert.is($('script').length, 0);
});

test('should show status, method, route, duration in ms and log counts', () => {
  const text = load(renderToolbar({ ...data, status: 200, route: 'hello', logErrors: 2, logWarnings: 1 }))('#appkernel-toolbar').text();
  for (const expected of ['200', 'GET', '@hello', '3.5 ms', '2 errors', '1 warning']) assert.ok(text.includes(expected), expected);
  assert.ok(load(renderToolbar(data))('#appkernel-toolbar').text().includes('no route'));
});

test.run();

// ---

const inject = suite('injectToolbar');

inject('should insert before the last </body>, whatever its case', () => {
  assert.is(injectToolbar('<html><body><p>a</p></BODY></html>', '<T>'), '<html><body><p>a</p><T></BODY></html>');
  assert.is(injectToolbar('<body><pre>&lt;/body&gt; </body></pre></body>', '<T>'), '<body><pre>&lt;/body&gt; </body></pre><T></body>');
});

inject('when the page has no </body>, then the toolbar is appended', () => {
  assert.is(injectToolbar('<p>fragment</p>', '<T>'), '<p>fragment</p><T>');
  assert.is(injectToolbar('</', '<T>'), '</<T>');
  assert.is(injectToolbar('</bod', '<T>'), '</bod<T>');
  assert.is(injectToolbar('</body', '<T>'), '<T></body');
});

inject('when the page holds characters whose lower case is longer (İ), then the toolbar still goes exactly before </body>', () => {
  assert.is(injectToolbar('<body><p>İİİ</p></body></html>', '<T>'), '<body><p>İİİ</p><T></body></html>');
});

inject('should give a page whose toolbar cheerio finds inside body', () => {
  const page = injectToolbar('<!DOCTYPE html><html><head><title>x</title></head><body><h1>Hi</h1></body></html>', renderToolbar(data));
  const $ = load(page);
  assert.is($('body > #appkernel-toolbar').length, 1);
  assert.is($('h1').text(), 'Hi');
});

inject.run();
