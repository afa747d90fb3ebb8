import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { explain } from '../../../core/routing/explain.js';
import { RouteCollection } from '../../../core/routing/route-collection.js';

const routes = new RouteCollection()
  .add('home', { path: '/', methods: ['GET'], controller: 'c' })
  .add('post', { path: '/posts/{id<\\d+>}', methods: ['GET'], controller: 'c' })
  .add('create', { path: '/posts/{slug}', methods: ['POST'], controller: 'c' })
  .add('hello', { path: '/hello/{name}', methods: ['GET'], controller: 'c' })
  .add('greet', { path: '/hello/{who}', controller: 'c' })
  .add('file', { path: '/files/{name}', methods: ['GET'], controller: 'c' });

/** name -> [verdict, detail] */
function verdicts(method: string, path: string): Record<string, [string, string]> {
  return Object.fromEntries(explain(routes, method, path).map((e) => [e.name, [e.verdict, e.detail]]));
}

const test = suite('explain()');

test('when asked, then it lists every route in matching order with its path and methods', () => {
  const explanations = explain(routes, 'GET', '/');
  assert.equal(
    explanations.map((e) => e.name),
    ['home', 'post', 'create', 'hello', 'greet', 'file'],
  );
  assert.equal(explanations[1], {
    name: 'post',
    path: '/posts/{id}',
    methods: ['GET'],
    verdict: 'path',
    detail: 'Path "/posts/{id}" does not match: the path ends before segment 1 "posts"',
  });
  assert.equal(explanations[0].verdict, 'match');
  assert.equal(explanations[4].methods, []);
});

test('when the first route matches, then only it is "match" and a later match names the winner', () => {
  const v = verdicts('GET', '/hello/world');
  assert.equal(v.hello, ['match', 'Route matches!']);
  assert.equal(v.greet, ['path', 'Route matches too, but route "hello" comes first']);
});

test('when a requirement fails, then the detail names the placeholder, its regex and the value', () => {
  assert.equal(verdicts('GET', '/posts/abc').post, [
    'requirement',
    'Requirement for "{id}" (\\d+) does not match "abc"',
  ]);
});

test('when only the method differs, then the detail lists the required methods', () => {
  assert.equal(verdicts('GET', '/posts/abc').create, [
    'method',
    'Method "GET" does not match any of the required methods (POST)',
  ]);
});

test('when the slash-toggled path matches, then the redirect target is named, or why there is none', () => {
  const get = verdicts('GET', '/hello/world/');
  assert.equal(get.hello, ['trailing-slash', 'Would match with the trailing slash toggled: 301 to /hello/world']);
  assert.equal(get.greet, [
    'trailing-slash',
    'Would match "/hello/world" with the trailing slash toggled, but route "hello" comes first',
  ]);
  assert.equal(verdicts('POST', '/hello/world/').hello, [
    'trailing-slash',
    'Would match "/hello/world" with the trailing slash toggled, but only GET and HEAD requests are redirected',
  ]);
  assert.equal(verdicts('GET', '/posts/12/').create, [
    'trailing-slash',
    'Would match "/posts/12" with the trailing slash toggled, but not for method "GET" (POST)',
  ]);
});

test('when an encoded slash stops a one-segment placeholder, then the detail says so', () => {
  assert.equal(verdicts('GET', '/files/a%2Fb').file, [
    'requirement',
    'Requirement for "{name}" ([^/]+) does not match "a/b": an encoded slash (%2F) does not fill a one-segment placeholder',
  ]);
});

test('when the method is lower-case, then it is judged upper-cased like the matcher does', () => {
  assert.equal(verdicts('get', '/posts/12').post, ['match', 'Route matches!']);
});

test('when the path differs from a route, then the detail names the first segment where they part', () => {
  assert.equal(verdicts('GET', '/hello/world/x').hello, [
    'path',
    'Path "/hello/{name}" does not match: segment 3 "x" is one more than the route has',
  ]);
  assert.equal(verdicts('GET', '/posts/abc').file, [
    'path',
    'Path "/files/{name}" does not match: segment 1 "posts" is not "files"',
  ]);
  assert.equal(verdicts('GET', '/hello/').home, [
    'path',
    'Path "/" does not match: segment 1 "hello" is one more than the route has',
  ]);
  assert.equal(verdicts('GET', '/hello/').file, [
    'path',
    'Path "/files/{name}" does not match: segment 1 "hello" is not "files"',
  ]);
  const items = new RouteCollection().add('items', { path: '/x/items', controller: 'c' });
  assert.equal(explain(items, 'GET', '/x/y')[0].detail, 'Path "/x/items" does not match: segment 2 "y" is not "items"');
});

test('when a placeholder may span segments, then no segment is named', () => {
  const any = new RouteCollection().add('any', {
    path: '/files/{path}',
    requirements: { path: '.+' },
    controller: 'c',
  });
  assert.equal(explain(any, 'GET', '/docs/a/b')[0].detail, 'Path "/files/{path}" does not match');
});

test("when the path is not under /_profiler, then the profiler's routes are left out, else they are listed", () => {
  const withProfiler = new RouteCollection()
    .add('_profiler_home', { path: '/_profiler/', controller: 'c' })
    .add('hello', { path: '/hello/{name}', controller: 'c' });
  assert.equal(
    explain(withProfiler, 'GET', '/hello/').map((e) => e.name),
    ['hello'],
  );
  assert.equal(
    explain(withProfiler, 'GET', '/_profiler/x').map((e) => e.name),
    ['_profiler_home', 'hello'],
  );
  assert.equal(
    explain(withProfiler, 'GET', '/_profiler/').map((e) => [e.name, e.verdict]),
    [
      ['_profiler_home', 'match'],
      ['hello', 'path'],
    ],
  );
});

test('when no route matches, then no verdict is "match"', () => {
  assert.not.ok(explain(routes, 'DELETE', '/nothing').some((e) => e.verdict === 'match'));
});

test.run();
