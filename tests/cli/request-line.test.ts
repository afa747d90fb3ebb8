import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { formatRequestLine, requestLineFormatter } from '../../cli/request-line.js';
import { Request } from '../../core/http/request.js';
import { Response } from '../../core/http/response.js';
import { assertNoRawControls, TERMINAL_PAYLOADS } from '../hardening/terminal-harness.js';

const test = suite('formatRequestLine: the line app serve prints per request');

/** A request as an adapter other than node:http could build it: the target and method unchecked by any parser. */
function hostileRequest(payload: string): Request {
  return new Request({ method: `GET${payload}`, target: `/p${payload}?q=${payload}`, headers: { host: '127.0.0.1' } });
}

/** A response as the profiler leaves it: its token in X-Debug-Token. */
function profiled(response: Response, token: string): Response {
  response.setHeader('X-Debug-Token', token);
  return response;
}

for (const { name, payload } of TERMINAL_PAYLOADS) {
  test(`when method, path, query and token hold ${name}, then each is escaped, with and without colour`, () => {
    const plain = formatRequestLine(
      hostileRequest(payload),
      profiled(new Response('', 404), `a1b2c3${payload}`),
      1.25,
      false,
    );
    assertNoRawControls(plain, name);
    assert.not.ok(plain.includes('\n'), plain);
    assert.match(plain, / 404 1\.3 ms a1b2c3/);
    const colored = formatRequestLine(
      hostileRequest(payload),
      profiled(new Response('', 404), `a1b2c3${payload}`),
      1.25,
      true,
    );
    assertNoRawControls(colored, name, { color: true });
    assert.ok(colored.includes(' \x1b[33m404\x1b[0m '), 'the status keeps its own colour');
  });
}

test('when nothing is hostile, then the line is unchanged: method, path, query, status, duration, token', () => {
  const request = new Request({ method: 'GET', target: '/hello/world?x=1', headers: { host: '127.0.0.1' } });
  assert.is(
    formatRequestLine(request, profiled(new Response('', 200), 'a1b2c3'), 1.25, false),
    'GET /hello/world?x=1 200 1.3 ms a1b2c3',
  );
});

/** A request as the router leaves it: its route and parameters in its attributes. */
function routed(target: string, route: string | null, params: Record<string, string>, method = 'GET'): Request {
  const request = new Request({ method, target, headers: { host: '127.0.0.1' } });
  request.attributes.route = route;
  request.attributes.params = params;
  return request;
}

test("when the same requests come again and again, then app serve's formatter prints what formatRequestLine prints, each time", () => {
  const format = requestLineFormatter(false);
  const sequence = [
    routed('/hello/world', 'hello', { name: 'world' }),
    routed('/hello/world', 'hello', { name: 'world' }),
    routed('/hello/world?x=1', 'hello', { name: 'world' }),
    routed('/hello/world?password=s3cret', 'hello', { name: 'world' }),
    routed('/hello/world', 'hello', { name: 'world' }, 'HEAD'),
    // The same path under a route whose parameter is a secret: it must not print the earlier, unredacted path.
    routed('/hello/world', 'reset', { token: 'world' }),
    routed('/hello/world', 'reset', { token: 'world' }),
    routed('/hello/world', 'reset', { token: 'world', extra: 'x' }),
    routed('/hello/world', 'hello', { name: 'world' }),
    routed('/nope', null, {}),
    routed('/nope', null, {}),
  ];
  for (const [i, request] of sequence.entries()) {
    const response = new Response('', 200 + i);
    assert.is(
      format(request, response, i + 0.25),
      formatRequestLine(request, response, i + 0.25, false),
      `request ${i}`,
    );
  }
  assert.is(format(sequence[5], new Response('', 200), 1), 'GET /hello/[REDACTED] 200 1.0 ms');
});

test("when a request's parameters are changed after it was printed, then the next line is made from the new ones", () => {
  const format = requestLineFormatter(false);
  const params: Record<string, string> = { name: 'world' };
  const request = routed('/hello/world', 'hello', params);
  assert.is(format(request, new Response('', 200), 1), 'GET /hello/world 200 1.0 ms');
  request.attributes.params = { token: 'world' };
  assert.is(format(request, new Response('', 200), 1), 'GET /hello/[REDACTED] 200 1.0 ms');
});

test.run();
