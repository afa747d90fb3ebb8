import fc from 'fast-check';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { fetchProfileJson, fetchText, serveForTest, type TestServer } from '../helpers/serve.js';
import { fuzzRuns } from '../helpers/corpus.js';
import { sendRaw } from './raw-http.js';

const test = suite(
  'request lines of any bytes over TCP under a property-based fuzz: a documented answer, and serving goes on',
);
let t: TestServer;

test.before(async () => {
  t = await serveForTest();
});
test.after(async () => {
  await t.stop();
});

/** Every status the server documents for a request it cannot or will not serve, or serves. */
const DOCUMENTED = new Set([200, 301, 302, 400, 404, 405, 414, 421, 431, 501, 505]);
const REASONS: Record<number, string> = {
  400: 'Bad Request',
  414: 'URI Too Long',
  421: 'Misdirected Request',
  431: 'Request Header Fields Too Large',
  501: 'Not Implemented',
  505: 'HTTP Version Not Supported',
};

const PIECES = [
  '/',
  '%',
  '%00',
  '%zz',
  '%FF',
  '%2e%2e',
  '..',
  '?',
  '#',
  '*',
  ' ',
  '\t',
  '\0',
  '\x7f',
  '\x01',
  'http://x',
  'hello',
  'world',
  '_profiler',
  'boom',
];
/** Target bytes: anything but CR and LF, which would end the request line early and leave the request unfinished. */
const targetBytes = fc
  .array(
    fc.oneof(
      fc.constantFrom(...PIECES).map((p) => Buffer.from(p, 'latin1')),
      fc.uint8Array({ maxLength: 6 }).map((bytes) => Buffer.from(bytes.filter((b) => b !== 0x0d && b !== 0x0a))),
    ),
    { maxLength: 10 },
  )
  .chain((parts) =>
    fc.constantFrom('', '/', '/', '/hello/').map((start) => Buffer.concat([Buffer.from(start), ...parts])),
  );
const methods = fc.constantFrom('GET', 'HEAD', 'POST', 'OPTIONS', 'PROPFIND', 'BREW', 'get', 'G@T', '');
const versions = fc.constantFrom('HTTP/1.1', 'HTTP/1.1', 'HTTP/1.0', 'HTTP/2.0', 'HTTP/1.1 extra', '');

test('when the request line holds any bytes, then the answer is a documented status whose message names the fault', async () => {
  const seen = new Set<number>();
  await fc.assert(
    fc.asyncProperty(methods, targetBytes, versions, async (method, target, version) => {
      const bytes = Buffer.concat([
        Buffer.from(`${method} `),
        target,
        Buffer.from(` ${version}\r\nHost: ${t.host}\r\nConnection: close\r\n\r\n`),
      ]);
      const answer = await sendRaw(t.base, bytes, { head: method === 'HEAD' });
      seen.add(answer.status);
      const shown = JSON.stringify(bytes.toString('latin1').slice(0, 120));
      if (answer.status === 500) {
        // Only the demo's own failing controller (/boom) answers 500.
        const profile = await fetchProfileJson(t.base, answer.headers['x-debug-token']);
        assert.is(profile.collectors.router.route, 'boom', shown);
        return;
      }
      assert.ok(DOCUMENTED.has(answer.status), `${shown} answered ${answer.status}: ${answer.body.slice(0, 200)}`);
      const reason = REASONS[answer.status];
      if (reason && answer.body !== '' && (answer.headers['content-type'] ?? '').startsWith('text/plain')) {
        assert.match(answer.body, new RegExp(`^${reason}: .+\\.\\n$`), `${shown}: ${answer.body}`);
      }
    }),
    {
      ...fuzzRuns(400, 'fuzz-raw-request-line 1'),
      examples: [
        ['GET', Buffer.from('/hello/x'), 'HTTP/1.1'],
        ['GET', Buffer.from('/nowhere'), 'HTTP/1.1'],
        ['GET', Buffer.from('/a\0b'), 'HTTP/1.1'],
      ],
    },
  );
  for (const status of [200, 400, 404])
    assert.ok(seen.has(status), `the fuzz reached a ${status}: ${[...seen].join(', ')}`);
  assert.is((await fetchText(`${t.base}/hello/after`)).status, 200, 'the server keeps serving');
});

test.run();
