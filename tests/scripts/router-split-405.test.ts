import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { DECLARED_405, split405, UNDECLARED_405 } from '../../scripts/bench/router/split-405.js';
import type { BenchRequest, Workload } from '../../scripts/bench/router/workload.js';

const test = suite('bench:router splits its 405 requests by whether a route declares the method');

const workload: Workload = {
  name: 'tiny',
  routes: [
    { method: 'GET', path: '/users/:id' },
    { method: 'DELETE', path: '/users/:id' },
    { method: 'POST', path: '/users' },
  ],
  requests: [],
};
const request = (method: string, path: string): BenchRequest => ({ method, path, kind: '405' });

test('when some 405 methods are declared by no route, then they and the others make two rows, in request order', () => {
  const requests = [
    request('PATCH', '/users/1'),
    request('POST', '/users/1'),
    request('PUT', '/users'),
    request('DELETE', '/users'),
  ];
  assert.equal(split405(requests, workload), [
    [UNDECLARED_405, [requests[0], requests[2]]],
    [DECLARED_405, [requests[1], requests[3]]],
  ]);
});

test('when every 405 method is declared, or none is, then no row is added', () => {
  assert.equal(split405([request('POST', '/users/1')], workload), []);
  assert.equal(split405([request('PATCH', '/users/1')], workload), []);
  assert.equal(split405([], workload), []);
});

test.run();
