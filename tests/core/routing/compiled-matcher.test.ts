import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { compileMatcher } from '../../../core/routing/compiled-matcher.js';
import { LinearMatcher } from '../../../core/routing/linear-matcher.js';
import { RouteCollection } from '../../../core/routing/route-collection.js';
import { runMatcherContract } from './matcher.contract.js';

runMatcherContract('CompiledMatcher', compileMatcher);

const test = suite('CompiledMatcher on large tables');

/** 600 routes sharing prefixes, so the generated search is split into several functions. */
function largeTable(): RouteCollection {
  const routes = new RouteCollection();
  for (let i = 0; i < 100; i++) {
    routes.add(`list${i}`, { path: `/api/v1/res${i}`, methods: ['GET'], controller: 'c' });
    routes.add(`show${i}`, { path: `/api/v1/res${i}/{id<\\d+>}`, methods: ['GET'], controller: 'c' });
    routes.add(`edit${i}`, {
      path: `/api/v1/res${i}/{id}/edit/{part?all}`,
      methods: ['PUT', 'PATCH'],
      controller: 'c',
    });
    routes.add(`nested${i}`, {
      path: `/api/{version}/res${i}/{id}/sub/{sub}`,
      methods: i % 2 ? ['GET'] : [],
      controller: 'c',
    });
    routes.add(`file${i}`, { path: `/files${i % 10}/{name}.{ext}`, methods: ['GET'], controller: 'c' });
    routes.add(`tail${i}`, { path: `/t/${i}/{rest<.+>}`, methods: ['DELETE'], controller: 'c' });
  }
  return routes;
}

test('when the table has hundreds of routes, then every lookup equals the linear scan', () => {
  const routes = largeTable();
  const compiled = compileMatcher(routes);
  const linear = new LinearMatcher(routes);
  const paths = [
    '/api/v1/res42',
    '/api/v1/res42/7',
    '/api/v1/res42/x',
    '/api/v1/res99/7/edit',
    '/api/v1/res99/7/edit/title',
    '/api/v2/res3/9/sub/a',
    '/api/v1/res4/9/sub/a',
    '/files3/a.txt',
    '/files3/a',
    '/t/12/a/b/c',
    '/t/12/',
    '/api/v1/res42/',
    '/api/v1/res100',
    '/nothing',
    '/api/v1/res7/1%2F2',
  ];
  for (const path of paths) {
    for (const method of ['GET', 'HEAD', 'PUT', 'DELETE', 'OPTIONS']) {
      assert.equal(compiled.lookup(method, path), linear.lookup(method, path), `${method} ${path}`);
    }
  }
});

test('when the method is one of the usual ones or another, then its routes are those declaring it or no method', () => {
  const routes = new RouteCollection();
  routes.add('show', { path: '/items/{id}', methods: ['GET'], controller: 'c' });
  routes.add('patch', { path: '/items/{id}', methods: ['PATCH'], controller: 'c' });
  routes.add('purge', { path: '/items/{id}', methods: ['PURGE'], controller: 'c' });
  routes.add('any', { path: '/any/{id}', controller: 'c' });
  const compiled = compileMatcher(routes);
  const linear = new LinearMatcher(routes);
  for (const method of ['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'PATCH', 'patch', 'PURGE', 'OPTIONS']) {
    for (const path of ['/items/1', '/any/1'])
      assert.equal(compiled.lookup(method, path), linear.lookup(method, path), `${method} ${path}`);
  }
  assert.equal(compiled.lookup('PATCH', '/items/1'), {
    type: 'match',
    route: 'patch',
    controller: 'c',
    params: { id: '1' },
  });
  assert.equal(compiled.lookup('DELETE', '/items/1'), {
    type: 'method-not-allowed',
    path: '/items/1',
    allowed: ['GET', 'PATCH', 'PURGE'],
  });
  assert.equal(compiled.lookup('DELETE', '/any/1'), {
    type: 'match',
    route: 'any',
    controller: 'c',
    params: { id: '1' },
  });
});

test('when a table is compiled twice, then both matchers answer alike and independently', () => {
  const routes = largeTable();
  const a = compileMatcher(routes);
  const b = compileMatcher(routes);
  assert.equal(a.lookup('GET', '/api/v1/res5/3'), b.lookup('GET', '/api/v1/res5/3'));
  assert.equal(a.lookup('PUT', '/api/v1/res5/3/edit'), {
    type: 'match',
    route: 'edit5',
    controller: 'c',
    params: { id: '3', part: 'all' },
  });
});

test.run();
