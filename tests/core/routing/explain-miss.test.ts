import fc from 'fast-check';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { editDistance } from '../../../core/routing/edit-distance.js';
import { explainMiss } from '../../../core/routing/explain-miss.js';
import { RouteCollection } from '../../../core/routing/route-collection.js';

const routes = new RouteCollection()
  .add('_profiler', { path: '/_profiler/{token}', methods: ['GET'], controller: 'c' })
  .add('home', { path: '/', methods: ['GET'], controller: 'c' })
  .add('post', { path: '/posts/{id<\\d+>}', methods: ['GET'], controller: 'c' })
  .add('hello', { path: '/hello/{name}', methods: ['GET'], controller: 'c' })
  .add('contact', { path: '/contact', methods: ['POST'], controller: 'c' })
  .add('page', { path: '/page/{n<\\d+>?1}', methods: ['GET'], controller: 'c' })
  .add('boom', { path: '/boom', controller: 'c' });

const test = suite('explainMiss()');

test('when a requirement fails, then that route comes first with the value that failed, and is suggested without a link', () => {
  const miss = explainMiss(routes, 'GET', '/posts/abc');
  assert.is(miss.method, 'GET');
  assert.is(miss.path, '/posts/abc');
  assert.equal(miss.closest[0], {
    name: 'post',
    path: '/posts/{id}',
    methods: ['GET'],
    verdict: 'requirement',
    detail: 'Requirement for "{id}" (\\d+) does not match "abc"',
  });
  assert.equal(miss.suggestions[0], { name: 'post', path: '/posts/{id}', url: null });
});

test('when the method does not fit, then the route that matches the path comes first with the method verdict', () => {
  const miss = explainMiss(routes, 'get', '/contact');
  assert.is(miss.method, 'GET');
  assert.is(miss.closest[0].name, 'contact');
  assert.is(miss.closest[0].verdict, 'method');
  assert.is(miss.closest[0].detail, 'Method "GET" does not match any of the required methods (POST)');
  assert.not.ok(
    miss.suggestions.some((s) => s.name === 'contact'),
    'a POST-only route is no GET suggestion',
  );
});

test("when the path is a typo of a route with placeholders, then the suggestion links the route filled with the request's own segments", () => {
  assert.equal(explainMiss(routes, 'GET', '/post/7').suggestions[0], {
    name: 'post',
    path: '/posts/{id}',
    url: '/posts/7',
  });
  assert.equal(explainMiss(routes, 'GET', '/helo/world').suggestions[0], {
    name: 'hello',
    path: '/hello/{name}',
    url: '/hello/world',
  });
  assert.equal(explainMiss(routes, 'GET', '/bom').suggestions[0], { name: 'boom', path: '/boom', url: '/boom' });
});

test('when a segment does not satisfy the requirement, then the default fills the placeholder', () => {
  assert.equal(explainMiss(routes, 'GET', '/pages/x').suggestions[0], {
    name: 'page',
    path: '/page/{n}',
    url: '/page/1',
  });
});

test("when nothing is close, then there is no suggestion, and at most five closest routes, the app's before the profiler's", () => {
  const miss = explainMiss(routes, 'GET', '/robots.txt');
  assert.equal(miss.suggestions, []);
  assert.is(miss.closest.length, 5);
  assert.not.ok(miss.closest.some((c) => c.name === '_profiler'));
  assert.ok(miss.closest.every((c) => c.verdict === 'path'));
});

test('when the path shares leading segments with a route, then that route comes before shorter edit distances', () => {
  const miss = explainMiss(routes, 'GET', '/hello/');
  assert.is(miss.closest[0].name, 'hello');
  assert.ok(miss.closest.findIndex((c) => c.name === 'hello') < miss.closest.findIndex((c) => c.name === 'home'));
  assert.not.ok(
    miss.closest.some((c) => c.name.startsWith('_profiler')),
    "the profiler's routes are left out of an app path",
  );
});

test('when the path is kilobytes long, then it is explained without a suggestion (the edit distance gives up early)', () => {
  const miss = explainMiss(routes, 'GET', `/posts/${'a'.repeat(20_000)}`);
  assert.is(miss.closest[0].verdict, 'requirement');
  assert.equal(
    miss.suggestions.map((s) => s.url),
    [null],
  );
});

test('when the app has no routes, then nothing is listed', () => {
  assert.equal(explainMiss(new RouteCollection(), 'GET', '/x'), {
    method: 'GET',
    path: '/x',
    closest: [],
    suggestions: [],
  });
});

test('when the same miss comes again, then it is explained once and the answer is the same', () => {
  const first = explainMiss(routes, 'GET', '/helo/world');
  assert.is(explainMiss(routes, 'GET', '/helo/world'), first);
  assert.is.not(explainMiss(routes, 'POST', '/helo/world'), first);
});

test('when a route is added to the table after a miss, then the same miss is explained with it', () => {
  const table = new RouteCollection().add('home', { path: '/', methods: ['GET'], controller: 'c' });
  assert.equal(explainMiss(table, 'GET', '/robots.txt').suggestions, []);
  table.add('robots', { path: '/robots.txt', methods: ['GET'], controller: 'c' });
  assert.equal(explainMiss(table, 'GET', '/robot.txt').suggestions[0], {
    name: 'robots',
    path: '/robots.txt',
    url: '/robots.txt',
  });
  assert.is(explainMiss(table, 'GET', '/robots.txt').closest[0].verdict, 'match');
});

test('when the app is reloaded with other routes, then the new table explains the miss anew', () => {
  const before = new RouteCollection().add('hello', { path: '/hello/{name}', methods: ['GET'], controller: 'c' });
  const after = new RouteCollection().add('help', { path: '/help', methods: ['GET'], controller: 'c' });
  assert.is(explainMiss(before, 'GET', '/help').closest[0].name, 'hello');
  assert.is(explainMiss(after, 'GET', '/help').closest[0].name, 'help');
});

test('given the same miss twice, when explained, then the shared answer is frozen to its method lists and the routes keep theirs', () => {
  const table = new RouteCollection().add('contact', { path: '/contact', methods: ['POST'], controller: 'c' });
  const miss = explainMiss(table, 'GET', '/contact');
  assert.is(explainMiss(table, 'GET', '/contact'), miss);
  for (const part of [miss, miss.closest, miss.closest[0], miss.closest[0].methods, miss.suggestions])
    assert.ok(Object.isFrozen(part));
  assert.throws(() => (miss.closest[0].methods as string[]).push('PUT'));
});

test.run();

// ---

const distance = suite('editDistance()');

distance('should count insertions, deletions and substitutions', () => {
  assert.is(editDistance('/post/7', '/posts/7', 10), 1);
  assert.is(editDistance('/helo', '/hello', 10), 1);
  assert.is(editDistance('kitten', 'sitting', 10), 3);
  assert.is(editDistance('', '/boom', 10), 5);
  assert.is(editDistance('same', 'same', 0), 0);
});

distance('when the distance exceeds the limit, then it answers limit + 1', () => {
  assert.is(editDistance('kitten', 'sitting', 2), 3);
  assert.is(editDistance('a'.repeat(10_000), 'b', 64), 65);
  assert.is(editDistance('abcdefgh', 'zyxwvuts', 3), 4);
});

/** The obvious full table, the banded and trimmed version's twin. */
function plainDistance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    let diagonal = row[0];
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const above = row[j];
      row[j] = Math.min(row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] === b[j - 1] ? 0 : 1));
      diagonal = above;
    }
  }
  return row[b.length];
}

distance('should answer as the full table does, capped at limit + 1 (property)', () => {
  const text = fc.string({ unit: fc.constantFrom('a', 'b', '/', '{', '}'), maxLength: 14 });
  fc.assert(
    fc.property(
      text,
      text,
      fc.nat(8),
      (a, b, limit) => editDistance(a, b, limit) === Math.min(plainDistance(a, b), limit + 1),
    ),
    { numRuns: 3000 },
  );
});

distance.run();
