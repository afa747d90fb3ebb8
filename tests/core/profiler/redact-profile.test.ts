import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { Request } from '../../../core/http/request.js';
import { Response } from '../../../core/http/response.js';
import { buildProfile } from '../../../core/profiler/build-profile.js';
import { liveTraceFacts } from '../../../core/profiler/trace-facts.js';
import { traceFor } from '../../helpers/trace-for.js';
import { replayableRequest } from '../../../core/profiler/export-request.js';
import { REDACTED } from '../../../core/redaction/index.js';
import { RouteCollection } from '../../../core/routing/route-collection.js';

const TOKEN = 'rst0k3n-value-77';

/** A request to /reset/{token} as the router leaves it: matched, logged, and failed with a message quoting the URL. */
function resetRequest(): { request: Request; trace: ReturnType<typeof traceFor> } {
  const request = new Request({ method: 'GET', target: `/reset/${TOKEN}?page=1`, headers: { host: '127.0.0.1:8000' } });
  const trace = traceFor(request, 'abc123');
  request.attributes.route = 'reset';
  request.attributes.params = { token: TOKEN };
  request.logger.withChannel('request').info('Matched route "reset".', {
    route: 'reset',
    route_parameters: { _route: 'reset', token: TOKEN },
    request_uri: request.url,
    method: 'GET',
  });
  trace.threw({
    chain: [
      {
        class: 'Error',
        message: `Expired: ${request.url} (${TOKEN})`,
        status: 500,
        headers: { 'WWW-Authenticate': 'Bearer abc.def' },
        frames: [],
      },
    ],
  });
  return { request, trace };
}

const test = suite('profile build: redaction follows the value into the URL, the panels, the log and the exception');

test('when a route parameter is named like a secret, then its value is in no part of the profile', () => {
  const reset = resetRequest();
  const profile = buildProfile(
    reset.request,
    liveTraceFacts(reset.request, reset.trace),
    Response.text('gone', 500),
    new RouteCollection(),
  );
  assert.not.match(JSON.stringify(profile), TOKEN);
  assert.is(profile.url, `http://127.0.0.1:8000/reset/${REDACTED}?page=1`);
  assert.is(profile.collectors.request.path, `/reset/${REDACTED}`);
  assert.is(profile.collectors.request.routeParams.token, REDACTED);
  assert.is(profile.collectors.router.params.token, REDACTED);
  assert.ok(profile.collectors.request.redacted.includes('route token'));
  const context = profile.collectors.log.records[0].context as {
    request_uri: string;
    route_parameters: Record<string, string>;
  };
  assert.is(context.request_uri, profile.url);
  assert.is(context.route_parameters.token, REDACTED);
  assert.is(profile.collectors.exception?.chain[0].message, `Expired: ${profile.url} (${REDACTED})`);
  assert.is(profile.collectors.exception?.chain[0].headers['WWW-Authenticate'], `Bearer ${REDACTED}`);
});

test('when a redacted route parameter is in the path, then the replayable request leaves it out and says so', () => {
  const reset = resetRequest();
  const profile = buildProfile(
    reset.request,
    liveTraceFacts(reset.request, reset.trace),
    Response.text('gone', 500),
    new RouteCollection(),
  );
  const replayable = replayableRequest(profile);
  assert.ok(replayable.omitted.includes('path parameter token'), replayable.omitted.join());
  assert.not.match(replayable.url, 'REDACTED');
  assert.is(replayable.url, 'http://127.0.0.1:8000/reset/?page=1');
});

test('when a log context holds secret keys at any depth and its message a secret URL, then both are redacted', () => {
  const request = new Request({ method: 'GET', target: '/', headers: { host: 'h' } });
  const trace = traceFor(request, 'abc124');
  const cyclic: Record<string, unknown> = { name: 'loop' };
  cyclic.self = cyclic;
  request.logger.info('Called https://api.test/v1?api_key=k-9f8e7d6c&x=1', {
    password: 'pw-1a2b3c',
    apiKey: 'ak-1a2b3c',
    nested: { deeper: { token: 'tk-1a2b3c' }, list: [{ secret: 's-1a2b3c' }] },
    note: 'sent Bearer bt-1a2b3c',
    when: new Date(0),
    big: 10n,
    cyclic,
  });
  const profile = buildProfile(request, liveTraceFacts(request, trace), Response.text('ok'), new RouteCollection());
  const text = JSON.stringify(profile);
  for (const value of ['k-9f8e7d6c', 'pw-1a2b3c', 'ak-1a2b3c', 'tk-1a2b3c', 's-1a2b3c', 'bt-1a2b3c'])
    assert.not.match(text, value);
  const record = profile.collectors.log.records[0];
  assert.is(record.message, `Called https://api.test/v1?api_key=${REDACTED}&x=1`);
  assert.equal(JSON.parse(JSON.stringify(record.context)), {
    password: REDACTED,
    apiKey: REDACTED,
    nested: { deeper: { token: REDACTED }, list: [{ secret: REDACTED }] },
    note: `sent Bearer ${REDACTED}`,
    when: '1970-01-01T00:00:00.000Z',
    big: '10',
    cyclic: { name: 'loop', self: '[circular]' },
  });
});

test('when a secret query value is quoted in a log message, then the message loses it too', () => {
  const request = new Request({ method: 'GET', target: '/?refresh=rf-0a9b8c7d', headers: { host: 'h' } });
  const trace = traceFor(request, 'abc125');
  request.logger.warning('refresh rf-0a9b8c7d was rejected', {});
  const profile = buildProfile(request, liveTraceFacts(request, trace), Response.text('ok'), new RouteCollection());
  assert.is(profile.collectors.log.records[0].message, `refresh ${REDACTED} was rejected`);
});

test('when the JSON body is a 16 KB deeply nested array, then the profile is built with the body replaced and the reason listed', () => {
  const body = Buffer.from(`${'['.repeat(8000)}${']'.repeat(8000)}`);
  const request = new Request({
    method: 'POST',
    target: '/accept',
    headers: { host: 'h', 'content-type': 'application/json' },
    body,
  });
  const trace = traceFor(request, 'abc126');
  const profile = buildProfile(request, liveTraceFacts(request, trace), Response.text('ok'), new RouteCollection());
  assert.is(
    profile.collectors.request.body?.text,
    '[body not stored: it could not be redacted (nested deeper than 64 levels)]',
  );
  assert.is(profile.collectors.request.body?.size, 16_000);
  assert.ok(profile.collectors.request.redacted.includes('body'));
  assert.ok(JSON.stringify(profile).length > 0);
});

test('when the query, cookies and headers hold __proto__ and constructor names, then the stored profile keeps them', () => {
  const request = new Request({
    method: 'GET',
    target: '/?__proto__=p1&constructor=c1',
    headers: { host: 'h', constructor: 'c2', cookie: '__proto__=x; constructor=y' },
  });
  const trace = traceFor(request, 'abc127');
  const profile = JSON.parse(
    JSON.stringify(
      buildProfile(
        request,
        liveTraceFacts(request, trace),
        new Response('ok', 200, { constructor: 'c3' }),
        new RouteCollection(),
      ),
    ),
  );
  const data = profile.collectors.request;
  assert.equal(Object.keys(data.query), ['__proto__', 'constructor']);
  assert.is(data.query.constructor, 'c1');
  assert.is(data.headers.constructor, 'c2');
  assert.equal(Object.keys(data.cookies), ['__proto__', 'constructor']);
  assert.is(data.response.headers.constructor, 'c3');
});

test.run();
