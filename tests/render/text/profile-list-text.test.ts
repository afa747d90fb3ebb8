import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { renderProfileListText } from '../../../render/text/index.js';
import { notFoundProfile, sampleProfile } from './sample-profile.js';

const test = suite('renderProfileListText');

test("should print the count, then aligned columns Status, Method, Path, Duration, Route, Time (short, the day's clock), Token", () => {
  const text = renderProfileListText([notFoundProfile(), sampleProfile({ duration: 1234.5, ip: '::1' })], {
    color: false,
    now: Date.UTC(2024, 4, 1, 13),
  });
  assert.is(
    text,
    [
      '2 results found',
      '',
      'Status  Method  Path           Duration  Route  Time      Token',
      '------  ------  ------------  ---------  -----  --------  ------',
      '404     GET     /robots.txt     12.3 ms         12:00:00  0f9e8d',
      '200     GET     /hello/world  1234.5 ms         12:00:00  a1b2c3',
      '',
    ].join('\n'),
  );
});

test('when wide, then every column as the search page shows it: Status, IP, Method, URL, Time, Duration, Route, Token', () => {
  const text = renderProfileListText([notFoundProfile(), sampleProfile({ duration: 1234.5, ip: '::1' })], {
    color: false,
    wide: true,
  });
  assert.is(
    text,
    [
      '2 results found',
      '',
      'Status  IP         Method  URL                                Time                      Duration  Route  Token',
      '------  ---------  ------  ---------------------------------  -----------------------  ---------  -----  ------',
      '404     127.0.0.1  GET     http://127.0.0.1:8000/robots.txt   2024-05-01 12:00:00 UTC    12.3 ms         0f9e8d',
      '200     ::1        GET     http://127.0.0.1:8000/hello/world  2024-05-01 12:00:00 UTC  1234.5 ms         a1b2c3',
      '',
    ].join('\n'),
  );
});

test('when the rows come from more than one server of a shared store, then an Instance column names each, made terminal-safe', () => {
  const text = renderProfileListText(
    [
      { ...notFoundProfile(), instance: 'web-1:8000' },
      { ...sampleProfile(), instance: 'web-2:8001\x1b[31m' },
    ],
    { color: false },
  );
  const [, , header, , first, second] = text.split('\n');
  assert.match(header, /Token\s+Instance\s*$/);
  assert.match(first, /0f9e8d\s+web-1:8000\s*$/);
  assert.ok(second.includes('web-2:8001') && !second.includes('\x1b'), second);
});

test('when every row comes from one server, then no Instance column', () => {
  const text = renderProfileListText(
    [
      { ...notFoundProfile(), instance: 'web-1:8000' },
      { ...sampleProfile(), instance: 'web-1:8000' },
    ],
    { color: false },
  );
  assert.not.match(text, /Instance|web-1/);
});

test('when there is one row, then "1 result found"', () => {
  assert.ok(renderProfileListText([sampleProfile()], { color: false }).startsWith('1 result found\n'));
});

test('when there are no rows, then "No results found"', () => {
  assert.is(renderProfileListText([], { color: false }), 'No results found\n');
});

test('when more matched than the rows given (a limit), then "<shown> of <total> results found", never the shown count alone', () => {
  const text = renderProfileListText([notFoundProfile(), sampleProfile()], { color: false, total: 7 });
  assert.ok(text.startsWith('2 of 7 results found\n'), text);
  assert.ok(renderProfileListText([sampleProfile()], { color: false, total: 1 }).startsWith('1 result found\n'));
});

test('when the store stopped counting, then "<shown> of 10,000+ results found"', () => {
  const text = renderProfileListText([notFoundProfile(), sampleProfile()], {
    color: false,
    total: { n: 10_000, more: true },
  });
  assert.ok(text.startsWith('2 of 10,000+ results found\n'), text);
});

test('when color is true, then the status is coloured by class (4xx yellow, 2xx green)', () => {
  const text = renderProfileListText([notFoundProfile(), sampleProfile()], { color: true });
  assert.ok(text.includes('\x1b[33m404\x1b[39m'));
  assert.ok(text.includes('\x1b[32m200\x1b[39m'));
  assert.not.match(renderProfileListText([notFoundProfile()], { color: false }), /\x1b/);
});

test.run();
