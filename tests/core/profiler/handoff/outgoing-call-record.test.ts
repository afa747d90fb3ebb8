import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { OutgoingCall } from '../../../../core/debug/outgoing-call.js';
import { collectHttpClient } from '../../../../core/profiler/collectors/http-client-collector.js';
import type { CollectContext } from '../../../../core/profiler/collectors/collect-context.js';
import { ByteReader, ByteWriter } from '../../../../core/profiler/handoff/byte-writer.js';
import { readOutgoingCall, writeOutgoingCall } from '../../../../core/profiler/handoff/outgoing-call-record.js';
import type { HttpClientData } from '../../../../core/profiler/panel-data.js';
import { SecretValues } from '../../../../core/redaction/index.js';

const test = suite(
  'an outgoing call crosses to the worker field by field, headers as the client gave them, and its panel reads the same on both sides',
);

const ORIGIN = 1_000.123456;

/** undici's call: headers as a flat list, the response's as Buffers (a UTF-8 value among them). */
function undiciCall(): OutgoingCall {
  const call = new OutgoingCall(
    'undici',
    ORIGIN,
    ORIGIN + 2.5,
    'POST',
    'http://127.0.0.1:9',
    '/api?token=abcdef123&page=2',
    ['Authorization', 'Bearer sekrit-token-1', 'Accept', '*/*', 'X-Many', ['a', 'b']],
    11,
  );
  call.headersAt = ORIGIN + 4.25;
  call.endAt = ORIGIN + 5.125;
  call.status = 201;
  call.statusText = 'Created';
  call.responseHeaders = [
    Buffer.from('Content-Length'),
    Buffer.from('7'),
    Buffer.from('Set-Cookie'),
    Buffer.from('sid=1'),
    Buffer.from('set-cookie'),
    Buffer.from('theme=dark'),
    Buffer.from('x-note'),
    Buffer.from('Zoë ✓'),
  ];
  return call;
}

/** node:http's call: headers as records, a list value among them; it failed after a timeout. */
function nodeCall(): OutgoingCall {
  const call = new OutgoingCall(
    'node:http',
    ORIGIN,
    ORIGIN + 1,
    'GET',
    'http://example.test:8080',
    '/slow',
    { host: 'example.test:8080', 'content-length': 3, accept: ['text/html', 'text/plain'] },
    null,
  );
  call.endAt = ORIGIN + 30;
  call.error = 'Headers Timeout Error';
  call.timedOut = true;
  return call;
}

/** An undici call still in flight at hand-off, its request headers a raw block. */
function inFlight(): OutgoingCall {
  return new OutgoingCall(
    'undici',
    ORIGIN,
    ORIGIN + 0.5,
    'GET',
    'https://a.test',
    '/',
    'X-A: 1\r\nCookie: c=2\r\n',
    null,
  );
}

function roundTrip(calls: OutgoingCall[]): OutgoingCall[] {
  const w = new ByteWriter();
  for (const call of calls) writeOutgoingCall(w, call);
  const r = new ByteReader(w.take());
  const read = calls.map(() => readOutgoingCall(r));
  assert.ok(r.done, 'every byte was read');
  return read;
}

function panel(calls: readonly unknown[]): HttpClientData {
  return collectHttpClient({
    entries: new Map([['http_client', calls]]),
    secrets: new SecretValues(),
  } as unknown as CollectContext);
}

test('when calls of every shape are written and read back, then the worker gets OutgoingCalls whose panel equals the live ones', () => {
  const live = [undiciCall(), nodeCall(), inFlight()];
  const read = roundTrip(live);
  for (const call of read) assert.instance(call, OutgoingCall);
  assert.equal(panel(read), panel(live));
});

test('when the panel is made from a call, then it shows what the old capture showed: URL, grouped lower-case headers redacted, sizes, times', () => {
  const data = panel(roundTrip([undiciCall(), nodeCall(), inFlight()]));
  const [posted, timedOut, open] = data.calls;
  assert.is(posted.url, 'http://127.0.0.1:9/api?token=[REDACTED]&page=2');
  assert.is(posted.method, 'POST');
  assert.is(posted.start, 2.5);
  assert.is(posted.duration, 5.125 - 2.5);
  assert.is(posted.status, 201);
  assert.is(posted.statusText, 'Created');
  assert.equal({ ...posted.requestHeaders }, { authorization: 'Bearer [REDACTED]', accept: '*/*', 'x-many': 'a,b' });
  assert.equal(
    { ...posted.responseHeaders },
    { 'content-length': '7', 'set-cookie': ['[REDACTED]', '[REDACTED]'], 'x-note': 'Zoë ✓' },
  );
  assert.is(posted.requestSize, 11, 'the body given');
  assert.is(posted.responseSize, 7, 'from Content-Length');
  assert.is(timedOut.client, 'node:http');
  assert.equal(
    { ...timedOut.requestHeaders },
    { host: 'example.test:8080', 'content-length': '3', accept: ['text/html', 'text/plain'] },
  );
  assert.is(timedOut.requestSize, 3, 'no body given: Content-Length');
  assert.is(timedOut.status, null);
  assert.is(timedOut.error, 'Headers Timeout Error');
  assert.ok(timedOut.timedOut);
  assert.equal({ ...timedOut.responseHeaders }, {});
  assert.is(open.duration, null, 'in flight');
  assert.equal({ ...open.requestHeaders }, { 'x-a': '1', cookie: '[REDACTED]' });
  assert.is(data.errors, 1);
  assert.is(data.totalTime, posted.duration! + timedOut.duration!);
});

test("when the app adds its own plain entry for the panel, then it is shown as before: the panel's fields, headers as pairs", () => {
  const [call] = panel([
    {
      client: 'node:http',
      method: 'GET',
      url: 'http://x.test/?api_key=k123456',
      start: 1,
      duration: 2,
      status: 500,
      statusText: 'Oops',
      requestHeaders: [['authorization', 'Basic abcdef']],
      responseHeaders: [['content-type', 'text/plain']],
      requestSize: null,
      responseSize: 4,
      error: null,
      timedOut: false,
    },
  ]).calls;
  assert.is(call.url, 'http://x.test/?api_key=[REDACTED]');
  assert.equal({ ...call.requestHeaders }, { authorization: 'Basic [REDACTED]' });
  assert.equal({ ...call.responseHeaders }, { 'content-type': 'text/plain' });
  assert.is(call.status, 500);
  assert.is(call.duration, 2);
});

test.run();
