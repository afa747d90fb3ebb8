import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { compileMatcher } from '../../../core/routing/compiled-matcher.js';
import { LinearMatcher } from '../../../core/routing/linear-matcher.js';
import type { RouteDefinition } from '../../../core/routing/route.js';
import { RouteCollection } from '../../../core/routing/route-collection.js';

// The walk's fast paths, each checked against a written answer and against the linear reference:
// static children picked by first char and compared in place (by length and last char when many
// share it), children entered by looping, and the 405's allowed list taken from one node.
const test = suite('Trie walk fast paths');

function table(definitions: [string, Omit<RouteDefinition, 'controller'>][]): RouteCollection {
  const routes = new RouteCollection();
  for (const [name, d] of definitions) routes.add(name, { ...d, controller: `C${name}` });
  return routes;
}

function bothAnswer(routes: RouteCollection, method: string, path: string): unknown {
  const compiled = compileMatcher(routes).lookup(method, path);
  assert.equal(compiled, new LinearMatcher(routes).lookup(method, path), `${method} ${path}`);
  return compiled;
}

test('when versions prefix one another (/v1 ... /v10), then each path finds its own version', () => {
  const routes = table(
    Array.from({ length: 10 }, (_, i) => [`v${i + 1}`, { path: `/v${i + 1}/users/{id}`, methods: ['GET'] }]),
  );
  assert.equal(bothAnswer(routes, 'GET', '/v10/users/7'), {
    type: 'match',
    route: 'v10',
    controller: 'Cv10',
    params: { id: '7' },
  });
  assert.equal(bothAnswer(routes, 'GET', '/v1/users/7'), {
    type: 'match',
    route: 'v1',
    controller: 'Cv1',
    params: { id: '7' },
  });
  assert.equal(bothAnswer(routes, 'GET', '/v11/users/7'), { type: 'not-found', path: '/v11/users/7/' });
  assert.equal(bothAnswer(routes, 'GET', '/v/users/7'), { type: 'not-found', path: '/v/users/7/' });
});

test('when a few static siblings share a first char and prefix one another, then each segment finds its own', () => {
  const routes = table([
    ['rep', { path: '/rep/{id}', methods: ['GET'] }],
    ['repo', { path: '/repo/{id}', methods: ['GET'] }],
    ['repos', { path: '/repos/{id}', methods: ['POST'] }],
    ['repository', { path: '/repository/{id}/', methods: ['GET'] }],
  ]);
  assert.equal(bothAnswer(routes, 'GET', '/repo/1'), {
    type: 'match',
    route: 'repo',
    controller: 'Crepo',
    params: { id: '1' },
  });
  assert.equal(bothAnswer(routes, 'GET', '/rep/1'), {
    type: 'match',
    route: 'rep',
    controller: 'Crep',
    params: { id: '1' },
  });
  assert.equal(bothAnswer(routes, 'GET', '/repos/1'), {
    type: 'method-not-allowed',
    path: '/repos/1',
    allowed: ['POST'],
  });
  assert.equal(bothAnswer(routes, 'GET', '/repository/1'), {
    type: 'redirect',
    route: 'repository',
    controller: 'Crepository',
    path: '/repository/1/',
    params: { id: '1' },
  });
  assert.equal(bothAnswer(routes, 'GET', '/reposi/1'), { type: 'not-found', path: '/reposi/1/' });
  assert.equal(bothAnswer(routes, 'GET', '/repo'), { type: 'not-found', path: '/repo/' });
  assert.equal(bothAnswer(routes, 'PUT', '/re/1'), { type: 'not-found', path: '/re/1' });
});

test('when static siblings have the same length, first and last char, then only the exact text matches', () => {
  const routes = table([
    ['axb', { path: '/axb/{id}' }],
    ['ayb', { path: '/ayb/{id}' }],
    ['azb', { path: '/azb/{id}', methods: ['POST'] }],
  ]);
  assert.equal(bothAnswer(routes, 'GET', '/ayb/1'), {
    type: 'match',
    route: 'ayb',
    controller: 'Cayb',
    params: { id: '1' },
  });
  assert.equal(bothAnswer(routes, 'GET', '/azb/1'), { type: 'method-not-allowed', path: '/azb/1', allowed: ['POST'] });
  assert.equal(bothAnswer(routes, 'GET', '/awb/1'), { type: 'not-found', path: '/awb/1/' });
});

test('when overlapping patterns match a path for other methods, then the 405 lists all their methods in route order', () => {
  const routes = table([
    ['a', { path: '/repos/{owner}/{repo}/labels', methods: ['GET'] }],
    ['b', { path: '/repos/{owner}/{repo<\\d+>}/labels', methods: ['PUT', 'GET'] }],
    ['c', { path: '/repos/{owner}/x/labels', methods: ['DELETE'] }],
    ['d', { path: '/repos/{owner}/{repo}/{what}', methods: ['POST'] }],
  ]);
  assert.equal(bothAnswer(routes, 'PATCH', '/repos/o/x/labels'), {
    type: 'method-not-allowed',
    path: '/repos/o/x/labels',
    allowed: ['GET', 'DELETE', 'POST'],
  });
  assert.equal(bothAnswer(routes, 'PATCH', '/repos/o/12/labels'), {
    type: 'method-not-allowed',
    path: '/repos/o/12/labels',
    allowed: ['GET', 'PUT', 'POST'],
  });
  assert.equal(bothAnswer(routes, 'PATCH', '/repos/o/r/labels'), {
    type: 'method-not-allowed',
    path: '/repos/o/r/labels',
    allowed: ['GET', 'POST'],
  });
  assert.equal(bothAnswer(routes, 'DELETE', '/repos/o/x/labels'), {
    type: 'match',
    route: 'c',
    controller: 'Cc',
    params: { owner: 'o' },
  });
  assert.equal(bothAnswer(routes, 'HEAD', '/repos/o/12/labels'), {
    type: 'match',
    route: 'a',
    controller: 'Ca',
    params: { owner: 'o', repo: '12' },
  });
});

test('when the 405 path comes from one node, then its allowed list follows requirements and HEAD', () => {
  const routes = table([
    ['show', { path: '/items/{id<\\d+>}', methods: ['GET'] }],
    ['slug', { path: '/items/{slug}', methods: ['PUT'] }],
  ]);
  assert.equal(bothAnswer(routes, 'POST', '/items/12'), {
    type: 'method-not-allowed',
    path: '/items/12',
    allowed: ['GET', 'PUT'],
  });
  assert.equal(bothAnswer(routes, 'POST', '/items/ab'), {
    type: 'method-not-allowed',
    path: '/items/ab',
    allowed: ['PUT'],
  });
  assert.equal(bothAnswer(routes, 'HEAD', '/items/ab'), {
    type: 'method-not-allowed',
    path: '/items/ab',
    allowed: ['PUT'],
  });
  assert.equal(bothAnswer(routes, 'HEAD', '/items/12'), {
    type: 'match',
    route: 'show',
    controller: 'Cshow',
    params: { id: '12' },
  });
});

test('when a lone placeholder is entered by looping, then empty segments and encoded slashes still fail it', () => {
  const routes = table([['repo', { path: '/repos/{owner}/{repo}/tags', methods: ['GET'] }]]);
  assert.equal(bothAnswer(routes, 'GET', '/repos/o/r/tags'), {
    type: 'match',
    route: 'repo',
    controller: 'Crepo',
    params: { owner: 'o', repo: 'r' },
  });
  assert.equal(bothAnswer(routes, 'GET', '/repos//r/tags'), { type: 'not-found', path: '/repos//r/tags/' });
  assert.equal(bothAnswer(routes, 'GET', '/repos/a%2Fb/r/tags'), { type: 'not-found', path: '/repos/a%2Fb/r/tags/' });
  assert.equal(bothAnswer(routes, 'POST', '/repos/o/r/tags'), {
    type: 'method-not-allowed',
    path: '/repos/o/r/tags',
    allowed: ['GET'],
  });
  assert.equal(bothAnswer(routes, 'GET', '/repos/o/r/tags/'), {
    type: 'redirect',
    route: 'repo',
    controller: 'Crepo',
    path: '/repos/o/r/tags',
    params: { owner: 'o', repo: 'r' },
  });
  assert.equal(bothAnswer(routes, 'POST', '/repos/o/r/tags/'), { type: 'not-found', path: '/repos/o/r/tags/' });
});

test('when a static route follows a placeholder route matching the same path, then the earlier route wins and the 405 lists both', () => {
  const routes = table([
    ['any', { path: '/a/{x}/end', methods: ['GET'] }],
    ['fixed', { path: '/a/b/end', methods: ['GET', 'POST'] }],
  ]);
  assert.equal(bothAnswer(routes, 'GET', '/a/b/end'), {
    type: 'match',
    route: 'any',
    controller: 'Cany',
    params: { x: 'b' },
  });
  assert.equal(bothAnswer(routes, 'POST', '/a/b/end'), {
    type: 'match',
    route: 'fixed',
    controller: 'Cfixed',
    params: {},
  });
  assert.equal(bothAnswer(routes, 'PUT', '/a/b/end'), {
    type: 'method-not-allowed',
    path: '/a/b/end',
    allowed: ['GET', 'POST'],
  });
});

test('when a route ends with a slash after a placeholder, then GET without it redirects and HEAD with it matches', () => {
  const routes = table([['dir', { path: '/docs/{page}/', methods: ['GET'] }]]);
  assert.equal(bothAnswer(routes, 'GET', '/docs/intro'), {
    type: 'redirect',
    route: 'dir',
    controller: 'Cdir',
    path: '/docs/intro/',
    params: { page: 'intro' },
  });
  assert.equal(bothAnswer(routes, 'HEAD', '/docs/intro/'), {
    type: 'match',
    route: 'dir',
    controller: 'Cdir',
    params: { page: 'intro' },
  });
});

test.run();
