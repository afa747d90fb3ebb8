import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { Request } from '../../../core/http/request.js';
import { Response } from '../../../core/http/response.js';
import { collectRequest, RESPONSE_BODY_CAP } from '../../../core/profiler/request-collector.js';
import { OpaqueBody } from '../../../core/profiler/request-facts.js';
import { SecretValues } from '../../../core/redaction/index.js';

const test = suite('the response body preview: text and JSON up to a cap, redacted like the request body');

const get = () =>
  new Request({ method: 'GET', target: '/x', headers: { host: '127.0.0.1:8000' }, clientIp: '127.0.0.1' });

test('when the response is JSON with secret keys, then the preview keeps the rest and redacts them, listed as "response body <path>"', () => {
  const response = Response.json({
    user: 'ann',
    password: 'hunter2-planted',
    profile: { access_token: 'tok-planted' },
  });
  const data = collectRequest(get(), response);
  const body = data.response.body!;
  assert.is(body.contentType, 'application/json');
  assert.is(body.truncated, false);
  assert.not.ok(body.text.includes('hunter2-planted') || body.text.includes('tok-planted'), body.text);
  assert.equal(JSON.parse(body.text), { user: 'ann', password: '[REDACTED]', profile: { access_token: '[REDACTED]' } });
  assert.ok(
    data.redacted.includes('response body password') && data.redacted.includes('response body profile.access_token'),
    data.redacted.join(', '),
  );
});

test('when a text body is over the cap, then the first RESPONSE_BODY_CAP bytes, marked truncated, with the whole size', () => {
  const text = 'x'.repeat(RESPONSE_BODY_CAP + 100);
  const body = collectRequest(get(), new Response(text, 200, { 'Content-Type': 'text/plain' })).response.body!;
  assert.is(body.size, RESPONSE_BODY_CAP + 100);
  assert.is(body.truncated, true);
  assert.is(body.text.length, RESPONSE_BODY_CAP);
});

test("when the worker only has the body's first bytes (OpaqueBody with a head), then the same preview as from the whole body", () => {
  const text = 'é'.repeat(RESPONSE_BODY_CAP);
  const whole = collectRequest(get(), new Response(text, 200, { 'Content-Type': 'text/plain' })).response.body;
  const bytes = Buffer.from(text);
  const head = collectRequest(
    get(),
    new Response(new OpaqueBody(bytes.length, bytes.subarray(0, RESPONSE_BODY_CAP + 1)) as never, 200, {
      'Content-Type': 'text/plain',
    }),
  ).response.body;
  assert.equal(head, whole);
});

test('when the body is binary, HTML, empty or a stream, then no preview (null)', () => {
  assert.is(collectRequest(get(), Response.html('<!DOCTYPE html><title>t</title>')).response.body, null);
  assert.is(
    collectRequest(get(), new Response(Buffer.from([0, 1, 2]), 200, { 'Content-Type': 'application/octet-stream' }))
      .response.body,
    null,
  );
  assert.is(collectRequest(get(), new Response('', 200, { 'Content-Type': 'text/plain' })).response.body, null);
  assert.is(
    collectRequest(get(), new Response(new OpaqueBody(10) as never, 200, { 'Content-Type': 'text/plain' })).response
      .body,
    null,
  );
});

test('when a text response echoes a secret the request carried, then the preview has it scrubbed', () => {
  const request = new Request({
    method: 'POST',
    target: '/x',
    headers: { host: '127.0.0.1:8000', 'content-type': 'application/x-www-form-urlencoded' },
    body: Buffer.from('password=echoed-s3cret-value'),
    clientIp: '127.0.0.1',
  });
  const body = collectRequest(
    request,
    new Response('You said echoed-s3cret-value.', 200, { 'Content-Type': 'text/plain' }),
    new SecretValues(),
  ).response.body!;
  assert.not.ok(body.text.includes('echoed-s3cret-value'), body.text);
});

test('given a JSON answer met before, when it comes again, then the same preview, findings and structure; a secret the request carried is still scrubbed', () => {
  const json = JSON.stringify({ detail: 'again-and-again', password: 'planted-again' });
  const answer = () => new Response(json, 404, { 'Content-Type': 'application/problem+json' });
  const first = collectRequest(get(), answer());
  const second = collectRequest(get(), answer());
  assert.equal(second.response, first.response);
  assert.equal(second.redacted, first.redacted);
  assert.ok(second.redacted.includes('response body password'), second.redacted.join(', '));
  const request = new Request({
    method: 'GET',
    target: '/x?q=again-and-again',
    headers: { host: '127.0.0.1:8000' },
    clientIp: '127.0.0.1',
  });
  const secrets = new SecretValues();
  secrets.add('again-and-again');
  const third = collectRequest(request, answer(), secrets).response.body!;
  assert.not.ok(third.text.includes('again-and-again'), third.text);
});

test("given the same body with the request's token in a key, when fingerprinted for two tokens, then the token is left out each time", () => {
  const body = (token: string) => JSON.stringify({ [`row-${token}`]: 1 });
  const a = collectRequest(
    get(),
    new Response(body('aaaaaa'), 200, { 'Content-Type': 'application/json' }),
    new SecretValues(),
    'aaaaaa',
  ).response.structure;
  const b = collectRequest(
    get(),
    new Response(body('bbbbbb'), 200, { 'Content-Type': 'application/json' }),
    new SecretValues(),
    'bbbbbb',
  ).response.structure;
  const other = collectRequest(
    get(),
    new Response(body('aaaaaa'), 200, { 'Content-Type': 'application/json' }),
    new SecretValues(),
    'bbbbbb',
  ).response.structure;
  assert.equal(a, b);
  assert.is.not(other?.hash, a?.hash);
});

test('when a short text body holds a lone surrogate or characters of several bytes, then the preview is what its UTF-8 bytes read back as', () => {
  for (const text of ['a\ud800b', 'é✓😀 ok', '\udc00', 'é'.repeat(RESPONSE_BODY_CAP / 2 + 1)]) {
    const body = collectRequest(get(), new Response(text, 200, { 'Content-Type': 'text/plain' })).response.body!;
    assert.is(body.text, Buffer.from(text).subarray(0, RESPONSE_BODY_CAP).toString('utf8'));
    assert.is(body.size, Buffer.byteLength(text));
  }
});

test.run();
