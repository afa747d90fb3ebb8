import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { InvalidParameterError, MissingParametersError, RouteNotFoundError } from '../../../core/errors.js';
import { LinearMatcher } from '../../../core/routing/linear-matcher.js';
import { RouteCollection } from '../../../core/routing/route-collection.js';
import { UrlGenerator } from '../../../core/routing/url-generator.js';

const routes = new RouteCollection()
  .add('home', { path: '/', controller: 'c' })
  .add('hello', { path: '/hello/{name}', controller: 'c' })
  .add('post', { path: '/posts/{id<\\d+>}', controller: 'c' })
  .add('pages', { path: '/pages/{page?1}', controller: 'c' })
  .add('archive', { path: '/archive/{year?2024}/{month?01}', controller: 'c' })
  .add('lang', { path: '/{lang?en}', controller: 'c' })
  .add('tree', { path: '/tree/{path<.+>}', controller: 'c' })
  .add('feed', { path: '/feed.{format}', defaults: { format: 'xml', _locale: 'en' }, controller: 'c' })
  .add('cafe', { path: '/café/{x}', controller: 'c' });
const generator = new UrlGenerator(routes, 'http://127.0.0.1:8000/');

const test = suite('UrlGenerator');

test('when placeholders are given, then they fill the path', () => {
  assert.is(generator.generate('home'), '/');
  assert.is(generator.generate('hello', { name: 'world' }), '/hello/world');
  assert.is(generator.generate('post', { id: 42 }), '/posts/42');
});

test('when values need it, then they are percent-encoded, "/" kept only where the requirement accepts it', () => {
  assert.is(generator.generate('hello', { name: 'Jürgen & co?#%' }), '/hello/J%C3%BCrgen%20&%20co%3F%23%25');
  assert.is(generator.generate('tree', { path: 'a/b c/d' }), '/tree/a/b%20c/d');
  assert.is(generator.generate('hello', { name: '..' }), '/hello/%2E%2E');
  assert.is(generator.generate('cafe', { x: 'y' }), '/caf%C3%A9/y');
});

test('when trailing optional placeholders hold their default, then they are left out', () => {
  assert.is(generator.generate('pages'), '/pages');
  assert.is(generator.generate('pages', { page: 1 }), '/pages');
  assert.is(generator.generate('pages', { page: 3 }), '/pages/3');
  assert.is(generator.generate('archive', { month: '05' }), '/archive/2024/05');
  assert.is(generator.generate('archive', { year: 2020 }), '/archive/2020');
  assert.is(generator.generate('lang'), '/');
  assert.is(generator.generate('feed'), '/feed');
  assert.is(generator.generate('feed', { format: 'json' }), '/feed.json');
});

test('when parameters are not placeholders, then they become the query string, defaults left out', () => {
  assert.is(generator.generate('hello', { name: 'x', page: 2, q: 'a b&c' }), '/hello/x?page=2&q=a%20b%26c');
  assert.is(generator.generate('feed', { _locale: 'en', v: 1 }), '/feed?v=1');
  assert.is(generator.generate('feed', { _locale: 'fr' }), '/feed?_locale=fr');
});

test('when an absolute URL is asked, then the base URL prefixes the path', () => {
  assert.is(generator.generate('hello', { name: 'x' }, { absolute: true }), 'http://127.0.0.1:8000/hello/x');
  assert.throws(() => new UrlGenerator(routes).generate('home', {}, { absolute: true }), /no base URL/);
});

test('when the route does not exist, then RouteNotFoundError names it', () => {
  assert.throws(
    () => generator.generate('nope'),
    (e: unknown) =>
      e instanceof RouteNotFoundError &&
      e.route === 'nope' &&
      e.message === 'Unable to generate a URL for the named route "nope" as such route does not exist.',
  );
});

test('when mandatory placeholders are missing, then MissingParametersError lists them all', () => {
  const two = new RouteCollection().add('two', { path: '/{a}/{b}/{c?1}', controller: 'c' });
  assert.throws(
    () => new UrlGenerator(two).generate('two', { c: 2 }),
    (e: unknown) =>
      e instanceof MissingParametersError &&
      e.missing.join() === 'a,b' &&
      e.message === 'Some mandatory parameters are missing ("a", "b") to generate a URL for route "two".',
  );
});

test('when a value fails its requirement, then InvalidParameterError names parameter, requirement and value', () => {
  assert.throws(
    () => generator.generate('post', { id: 'abc' }),
    (e: unknown) =>
      e instanceof InvalidParameterError &&
      e.message === 'Parameter "id" for route "post" must match "\\d+" ("abc" given) to generate a corresponding URL.',
  );
  for (const name of ['a/b', '']) {
    assert.throws(
      () => generator.generate('hello', { name }),
      (e: unknown) => e instanceof InvalidParameterError && e.value === name,
      name,
    );
  }
});

test('when a generated URL is matched, then the parameters come back', () => {
  const matcher = new LinearMatcher(routes);
  const cases: [string, Record<string, string>][] = [
    ['hello', { name: 'Jürgen & co?#%' }],
    ['hello', { name: '%2F' }],
    ['tree', { path: 'a/b%2Fc/ d' }],
    ['archive', { year: '2020', month: '01' }],
    ['hello', { name: '.' }],
  ];
  for (const [name, params] of cases) {
    const result = matcher.match('GET', generator.generate(name, params));
    assert.equal(result.params, params, name);
  }
});

test.run();
