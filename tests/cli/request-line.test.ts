import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { formatRequestLine } from '../../cli/request-line.js';
import { Request } from '../../core/http/request.js';
import { Response } from '../../core/http/response.js';
import { assertNoRawControls, TERMINAL_PAYLOADS } from '../hardening/terminal-harness.js';

const test = suite('formatRequestLine: the line app serve prints per request');

/** A request as an adapter other than node:http could build it: the target and method unchecked by any parser. */
function hostileRequest(payload: string): Request {
  const request = new Request({ method: `GET${payload}`, target: `/p${payload}?q=${payload}`, headers: { host: '127.0.0.1' } });
  request.token = `a1b2c3${payload}`;
  return request;
}

for (const { name, payload } of TERMINAL_PAYLOADS) {
  test(`when method, path, query and token hold ${name}, then each is escaped, with and without colour`, () => {
    const plain = formatRequestLine(hostileRequest(payload), new Response('', 404), 1.25, false);
    assertNoRawControls(plain, name);
    assert.not.ok(plain.includes('\n'), plain);
    assert.match(plain, / 404 1\.3 ms a1b2c3/);
    const coloured = formatRequestLine(hostileRequest(payload), new Response('', 404), 1.25, true);
    assertNoRawControls(coloured, name, { colour: true });
    assert.ok(coloured.includes(' \x1b[33m404\x1b[0m '), 'the status keeps its own colour');
  });
}

test('when nothing is hostile, then the line is unchanged: method, path, query, status, duration, token', () => {
  const request = new Request({ method: 'GET', target: '/hello/world?x=1', headers: { host: '127.0.0.1' } });
  request.token = 'a1b2c3';
  assert.is(formatRequestLine(request, new Response('', 200), 1.25, false), 'GET /hello/world?x=1 200 1.3 ms a1b2c3');
});

test.run();
