import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import {
  applyNormalisers,
  defaultNormalisers,
  findTokens,
  knownTokens,
  normaliseClientIps,
  normaliseDurations,
  normaliseHosts,
  normalisePaths,
  normaliseSizes,
  normaliseTimes,
  normaliseTokens,
  normaliseVendorPositions,
  type Normaliser,
} from '../../snapshots/index.js';
import { PACKAGE_ROOT } from '../../core/package-root.js';

/** Each case: input, expected output. */
function cases(normalise: Normaliser, table: [string, string][]): void {
  for (const [input, expected] of table) assert.is(normalise(input), expected, input);
}

const test = suite('normalisers');

test('tokens: in profiler and toolbar URLs, token= queries, X-Debug-Token and after "token"; other hex words stay', () => {
  cases(normaliseTokens, [
    ['/_profiler/3f2a1c?panel=log', '/_profiler/<TOKEN>?panel=log'],
    ['/_wdt/3f2a1c', '/_wdt/<TOKEN>'],
    ['/search?token=3f2a1c&x=1', '/search?token=<TOKEN>&x=1'],
    ['X-Debug-Token: 3f2a1c', 'X-Debug-Token: <TOKEN>'],
    ['replayed (token 3f2a1c)', 'replayed (token <TOKEN>)'],
    ['a decade of facade', 'a decade of facade'],
    ['/_profiler/3f2a1c9', '/_profiler/3f2a1c9'],
  ]);
});

test('tokens found in a page are replaced wherever they appear, as whole words', () => {
  const tokens = findTokens('<a href="/_profiler/3f2a1c">3f2a1c</a> <th>X-Debug-Token</th><td>0a0b0c</td>');
  assert.equal([...tokens].sort(), ['3f2a1c']);
  assert.equal([...findTokens('X-Debug-Token0a0b0c')], ['0a0b0c']);
  cases(knownTokens(tokens), [
    ['3f2a1c', '<TOKEN>'],
    ['x3f2a1c', 'x3f2a1c'],
    ['see 3f2a1c.', 'see <TOKEN>.'],
  ]);
});

test('times: ISO date-times, dates, "YYYY-MM-DD HH:MM:SS UTC" and clock times; line:column stays', () => {
  cases(normaliseTimes, [
    ['at 2024-05-01T12:00:00.123Z', 'at <TIME>'],
    ['2024-05-01T12:00:00+02:00 then', '<TIME> then'],
    ['2024-05-01 12:00:00 UTC', '<TIME>'],
    ['on 2024-05-01', 'on <TIME>'],
    ['12:00:02  ERROR', '<TIME>  ERROR'],
    ['shop.ts:12:5', 'shop.ts:12:5'],
  ]);
});

test('durations: ms, µs, seconds; "404s" stays', () => {
  cases(normaliseDurations, [
    ['took 12.3 ms', 'took <DURATION>'],
    ['0.42ms', '<DURATION>'],
    ['1.2 s and 3 s', '<DURATION> and <DURATION>'],
    ['15 µs', '<DURATION>'],
    ['all the 404s', 'all the 404s'],
  ]);
});

test('hosts: any URL with a port, URLs on loopback hosts and bare host:port; other hosts stay', () => {
  cases(normaliseHosts, [
    ['GET http://127.0.0.1:54321/robots.txt', 'GET http://<HOST>/robots.txt'],
    ['https://localhost/x', 'https://<HOST>/x'],
    ['http://[::1]:8000/', 'http://<HOST>/'],
    ['http://example.test:8443/a', 'http://<HOST>/a'],
    ['from "http://example.test/page"', 'from "http://example.test/page"'],
    ['listening on localhost:8000', 'listening on <HOST>'],
    ['127.0.0.1:3000', '<HOST>'],
    [
      '/_profiler/search?url=http%3A%2F%2F127.0.0.1%3A39015%2Fboom&limit=10',
      '/_profiler/search?url=http%3A%2F%2F<HOST>%2Fboom&limit=10',
    ],
    ['url=https%3a%2f%2flocalhost%2Fx', 'url=https%3a%2f%2f<HOST>%2Fx'],
    ['url=http%3A%2F%2F%5B%3A%3A1%5D%3A8000%2F', 'url=http%3A%2F%2F<HOST>%2F'],
    ['url=http%3A%2F%2Fexample.test%2Fpage', 'url=http%3A%2F%2Fexample.test%2Fpage'],
  ]);
});

test('client IPs: IPv4, IPv6, ::1 and ::ffff:127.0.0.1; times, MACs and words with colons stay', () => {
  cases(normaliseClientIps, [
    ['127.0.0.1', '<CLIENT_IP>'],
    ['from ::1', 'from <CLIENT_IP>'],
    ['::ffff:127.0.0.1', '<CLIENT_IP>'],
    ['2001:db8::7', '<CLIENT_IP>'],
    ['999.1.1.1', '999.1.1.1'],
    ['12:34:56', '12:34:56'],
    ['aa:bb:cc:dd:ee:ff', 'aa:bb:cc:dd:ee:ff'],
    ['Code: add:', 'Code: add:'],
  ]);
});

test('paths: under the root, from node_modules, under system folders; URL paths stay', () => {
  cases(normalisePaths('/code/app/'), [
    ['at f (/code/app/src/shop.ts:7:11)', 'at f (<ROOT>/src/shop.ts:7:11)'],
    ['/code/app', '<ROOT>'],
    ['/code/application/x.ts', '/code/application/x.ts'],
    ['/opt/ci/app/node_modules/cheerio/dist/index.js', '<ROOT>/node_modules/cheerio/dist/index.js'],
    ['/home/bob/proj/shop.ts:7', '<ROOT>/.../shop.ts:7'],
    ['No routes found for "/robots.txt/"', 'No routes found for "/robots.txt/"'],
    ['<link href="/static/app/main.css">', '<link href="/static/app/main.css">'],
    ['node:internal/process/task_queues:95:5', 'node:internal/process/task_queues:95:5'],
  ]);
});

test("paths: a file inside appkernel's own folder is a vendor path wherever the package is checked out", () => {
  const own = join(PACKAGE_ROOT, 'core', 'kernel', 'router-listener.ts');
  cases(normalisePaths('/elsewhere/app'), [
    [`at ${own} line 38`, 'at <ROOT>/.../router-listener.ts line 38'],
    [`(${own}:38:11)`, '(<ROOT>/.../router-listener.ts:38:11)'],
  ]);
  assert.is(
    normaliseVendorPositions(normalisePaths('/elsewhere/app')(`at ${own} line 38`)),
    'at <ROOT>/.../router-listener.ts line <LINE>',
  );
});

test("vendor positions: in Node internals, packages and files outside the root; the app's own stay", () => {
  cases(normaliseVendorPositions, [
    ['at Server.emit (node:events:524:28)', 'at Server.emit (node:events:<LINE>)'],
    [
      'processTicksAndRejections in node:internal/process/task_queues line 95',
      'processTicksAndRejections in node:internal/process/task_queues line <LINE>',
    ],
    [
      'at run (<ROOT>/node_modules/appkernel/dist/core/kernel/kernel.js:55:27)',
      'at run (<ROOT>/node_modules/appkernel/dist/core/kernel/kernel.js:<LINE>)',
    ],
    [
      'Uncaught exception at <ROOT>/.../router-listener.ts line 38 {',
      'Uncaught exception at <ROOT>/.../router-listener.ts line <LINE> {',
    ],
    ['at f (<ROOT>/src/shop.ts:7:11)', 'at f (<ROOT>/src/shop.ts:7:11)'],
    ['checkStock in src/shop.ts line 7', 'checkStock in src/shop.ts line 7'],
    ['node: 12 items', 'node: 12 items'],
  ]);
});

test('sizes: bytes and binary or decimal units', () => {
  cases(normaliseSizes, [
    ['1234 bytes', '<BYTES>'],
    ['1 byte', '<BYTES>'],
    ['12.3 KB', '<BYTES>'],
    ['4MiB', '<BYTES>'],
    ['200 B', '<BYTES>'],
    ['Big Bang', 'Big Bang'],
  ]);
});

test('the default list runs in order: a URL with host and port is <HOST>, not a client IP', () => {
  const normalise = (text: string) => applyNormalisers(text, defaultNormalisers({ root: '/work/app' }));
  assert.is(
    normalise(
      'GET http://127.0.0.1:8000/_profiler/3f2a1c from 127.0.0.1 at 12:00:00 in 3.1 ms, 120 bytes, /work/app/a.ts',
    ),
    'GET http://<HOST>/_profiler/<TOKEN> from <CLIENT_IP> at <TIME> in <DURATION>, <BYTES>, <ROOT>/a.ts',
  );
});

test('users can add their own normaliser to the list', () => {
  const csrf: Normaliser = (text) => text.replace(/csrf-[a-z0-9]+/g, '<CSRF>');
  assert.is(applyNormalisers('csrf-x9 at 12:00:00', [...defaultNormalisers(), csrf]), '<CSRF> at <TIME>');
});

test.run();
