import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { MethodNotAllowedError, ResourceNotFoundError } from '../../../core/errors.js';
import type { Matcher, MatchResult } from '../../../core/routing/matcher.js';
import type { RouteDefinition } from '../../../core/routing/route.js';
import { RouteCollection } from '../../../core/routing/route-collection.js';

type Build = (routes: RouteCollection) => Matcher;
type Row = [name: string, path: string, methods?: string[], extra?: Partial<RouteDefinition>];

function table(...rows: Row[]): RouteCollection {
  const routes = new RouteCollection();
  for (const [name, path, methods, extra] of rows)
    routes.add(name, { path, methods, controller: `C:${name}`, ...extra });
  return routes;
}

/** What match() did: the result, or the thrown error's class, message, path and allowed methods. */
function attempt(
  matcher: Matcher,
  method: string,
  path: string,
): MatchResult | { error: string; message: string; path: string; allowed?: readonly string[] } {
  try {
    return matcher.match(method, path);
  } catch (error) {
    if (error instanceof MethodNotAllowedError)
      return { error: error.name, message: error.message, path: error.path, allowed: error.allowed };
    if (error instanceof ResourceNotFoundError) return { error: error.name, message: error.message, path: error.path };
    throw error;
  }
}

const match = (route: string, params: Record<string, string> = {}): MatchResult => ({
  type: 'match',
  route,
  controller: `C:${route}`,
  params,
});
const redirect = (route: string, path: string, params: Record<string, string> = {}): MatchResult => ({
  type: 'redirect',
  route,
  controller: `C:${route}`,
  path,
  params,
});
const notFound = (path: string) => ({ error: 'ResourceNotFoundError', message: `No routes found for "${path}"`, path });
const notAllowed = (path: string, allowed: string[]) => ({
  error: 'MethodNotAllowedError',
  message: new MethodNotAllowedError(path, allowed).message,
  path,
  allowed,
});

/** Every Matcher must answer these exactly; LinearMatcher is the reference. */
export function runMatcherContract(name: string, build: Build): void {
  const test = suite(`${name} honours the Matcher contract`);
  const expect = (routes: RouteCollection, method: string, path: string, expected: unknown) => {
    assert.equal(attempt(build(routes), method, path), expected, `${method} ${path}`);
  };

  test('when a placeholder fills a segment, then its value is a parameter', () => {
    const routes = table(['hello', '/hello/{name}', ['GET']], ['post', '/users/{user}/posts/{slug}']);
    expect(routes, 'GET', '/hello/world', match('hello', { name: 'world' }));
    expect(routes, 'GET', '/users/7/posts/intro', match('post', { user: '7', slug: 'intro' }));
  });

  test('when a placeholder has a requirement, inline or separate, then values failing it do not match', () => {
    const routes = table(
      ['inline', '/posts/{id<\\d+>}', ['GET']],
      ['separate', '/tags/{tag}', ['GET'], { requirements: { tag: '[a-z]+' } }],
      ['braces', '/archive/{year<\\d{4}>}', ['GET']],
    );
    expect(routes, 'GET', '/posts/12', match('inline', { id: '12' }));
    expect(routes, 'POST', '/posts/abc', notFound('/posts/abc'));
    expect(routes, 'GET', '/tags/news', match('separate', { tag: 'news' }));
    expect(routes, 'POST', '/tags/News', notFound('/tags/News'));
    expect(routes, 'GET', '/archive/2024', match('braces', { year: '2024' }));
    expect(routes, 'POST', '/archive/24', notFound('/archive/24'));
  });

  test('when a requirement uses ".", then it matches any character, a newline too, as Symfony compiles requirements', () => {
    const routes = table(
      ['rest', '/all/{rest}', [], { requirements: { rest: '.+' } }],
      ['mixed', '/m/{a}-x', [], { requirements: { a: '.+' } }],
      ['one', '/one/{c}', [], { requirements: { c: 'a.b' } }],
    );
    expect(routes, 'GET', '/all/a%0Ab', match('rest', { rest: 'a\nb' }));
    expect(routes, 'GET', '/m/a%0Ab-x', match('mixed', { a: 'a\nb' }));
    expect(routes, 'GET', '/one/a%0Ab', match('one', { c: 'a\nb' }));
  });

  test('when trailing placeholders have defaults, then they and their separator are optional', () => {
    const routes = table(
      ['pages', '/pages/{page?1}', ['GET']],
      ['search', '/search/{q?}', ['GET']],
      ['archive', '/archive/{year<\\d+>?2024}/{month<\\d+>?01}', ['GET']],
      ['file', '/files/{name<[^/.]+>}.{format?json}', ['GET']],
    );
    expect(routes, 'GET', '/pages', match('pages', { page: '1' }));
    expect(routes, 'GET', '/pages/3', match('pages', { page: '3' }));
    expect(routes, 'GET', '/search', match('search', { q: '' }));
    expect(routes, 'GET', '/archive', match('archive', { year: '2024', month: '01' }));
    expect(routes, 'GET', '/archive/2020', match('archive', { year: '2020', month: '01' }));
    expect(routes, 'GET', '/archive/2020/05', match('archive', { year: '2020', month: '05' }));
    expect(routes, 'POST', '/archive/x', notFound('/archive/x'));
    expect(routes, 'GET', '/files/report', match('file', { name: 'report', format: 'json' }));
    expect(routes, 'GET', '/files/report.csv', match('file', { name: 'report', format: 'csv' }));
  });

  test('when a placeholder with a default is not trailing, then it is still required', () => {
    const routes = table(['edit', '/posts/{id?1}/edit', ['GET']]);
    expect(routes, 'GET', '/posts/5/edit', match('edit', { id: '5' }));
    expect(routes, 'POST', '/posts/edit', notFound('/posts/edit'));
  });

  test('when the whole path is one optional placeholder, then "/" matches with the default', () => {
    const routes = table(['home', '/{lang?en}', ['GET']]);
    expect(routes, 'GET', '/', match('home', { lang: 'en' }));
    expect(routes, 'GET', '/fr', match('home', { lang: 'fr' }));
  });

  test('when a route has defaults for keys outside its path, then they are parameters too', () => {
    const routes = table(
      ['feed', '/feed', ['GET'], { defaults: { _format: 'xml' } }],
      ['post', '/p/{id}', ['GET'], { defaults: { _format: 'html' } }],
    );
    expect(routes, 'GET', '/feed', match('feed', { _format: 'xml' }));
    expect(routes, 'GET', '/p/1', match('post', { id: '1', _format: 'html' }));
  });

  test('when a route allows GET, then it answers HEAD too, but a HEAD-only route does not answer GET', () => {
    const routes = table(['page', '/page', ['GET']], ['probe', '/probe', ['HEAD']]);
    expect(routes, 'HEAD', '/page', match('page'));
    expect(routes, 'GET', '/probe', notAllowed('/probe', ['HEAD']));
  });

  test('when methods are given in any case, then they are compared upper-cased', () => {
    const routes = table(['contact', '/contact', ['post']]);
    expect(routes, 'post', '/contact', match('contact'));
    expect(routes, 'Post', '/contact', match('contact'));
  });

  test('when a route declares no methods, then it answers any method', () => {
    const routes = table(['any', '/any/{x}', []]);
    expect(routes, 'OPTIONS', '/any/1', match('any', { x: '1' }));
    expect(routes, 'PROPFIND', '/any/1', match('any', { x: '1' }));
  });

  test('when routes match the path but not the method, then the allowed methods are listed in route order without duplicates', () => {
    const routes = table(
      ['put', '/items/{id}', ['PUT']],
      ['delete', '/items/{id}', ['DELETE', 'put']],
      ['get', '/items/{id<\\d+>}', ['GET', 'PUT']],
      ['other', '/other', ['PATCH']],
    );
    expect(routes, 'PATCH', '/items/1', notAllowed('/items/1', ['PUT', 'DELETE', 'GET']));
    expect(routes, 'PATCH', '/items/x', notAllowed('/items/x', ['PUT', 'DELETE']));
    expect(routes, 'GET', '/other', notAllowed('/other', ['PATCH']));
  });

  test('when a static path is also matched by an earlier placeholder route, then both count for the 405', () => {
    const routes = table(['create', '/posts/{slug}', ['POST']], ['new', '/posts/new', ['PUT', 'POST']]);
    expect(routes, 'DELETE', '/posts/new', notAllowed('/posts/new', ['POST', 'PUT']));
  });

  test('when routes overlap, then definition order beats specificity', () => {
    const slugFirst = table(['show', '/posts/{slug}', ['GET']], ['new', '/posts/new', ['GET']]);
    expect(slugFirst, 'GET', '/posts/new', match('show', { slug: 'new' }));
    const staticFirst = table(['new', '/posts/new', ['GET']], ['show', '/posts/{slug}', ['GET']]);
    expect(staticFirst, 'GET', '/posts/new', match('new'));
    const wideFirst = table(['all', '/files/{path<.+>}', ['GET']], ['one', '/files/{name}', ['GET']]);
    expect(wideFirst, 'GET', '/files/a', match('all', { path: 'a' }));
  });

  test('when an earlier route matches the path but not the method, then a later route can still win', () => {
    const routes = table(['create', '/posts/{slug}', ['POST']], ['new', '/posts/new', ['GET']]);
    expect(routes, 'GET', '/posts/new', match('new'));
    expect(routes, 'POST', '/posts/new', match('create', { slug: 'new' }));
    expect(routes, 'PUT', '/posts/new', notAllowed('/posts/new', ['POST', 'GET']));
  });

  test('when only the slash-toggled path matches a GET or HEAD request, then the result is a redirect to it', () => {
    const routes = table(['hello', '/hello/{name}', ['GET']], ['blog', '/blog/', ['GET']], ['a', '/a', ['GET']]);
    expect(routes, 'GET', '/hello/world/', redirect('hello', '/hello/world', { name: 'world' }));
    expect(routes, 'HEAD', '/hello/world/', redirect('hello', '/hello/world', { name: 'world' }));
    expect(routes, 'GET', '/blog', redirect('blog', '/blog/'));
    expect(routes, 'GET', '/a//', redirect('a', '/a'));
    expect(routes, 'POST', '/hello/world/', notFound('/hello/world/'));
  });

  test('when nothing matches a GET or HEAD request, then the failure names the slash-toggled path; other methods keep it', () => {
    const routes = table(['home', '/', ['GET']]);
    expect(routes, 'GET', '/robots.txt', notFound('/robots.txt/'));
    expect(routes, 'HEAD', '/robots.txt', notFound('/robots.txt/'));
    expect(routes, 'POST', '/robots.txt', notFound('/robots.txt'));
    expect(routes, 'GET', '/a//', notFound('/a'));
    assert.is(
      (attempt(build(routes), 'GET', '/robots.txt') as { message: string }).message,
      'No routes found for "/robots.txt/"',
    );
  });

  test('when the path is "/" or only slashes and nothing matches, then there is no retry', () => {
    const routes = table(['page', '/page', ['GET']]);
    expect(routes, 'GET', '/', notFound('/'));
    expect(routes, 'GET', '//', notFound('//'));
  });

  test('when the slash-toggled path only meets a method mismatch, then it is a 404, not a 405', () => {
    const routes = table(['contact', '/contact', ['POST']]);
    expect(routes, 'GET', '/contact/', notFound('/contact'));
  });

  test('when the path matches with the wrong method, then it is a 405 even if the toggled path would match', () => {
    const routes = table(['save', '/x', ['POST']], ['show', '/x/', ['GET']]);
    expect(routes, 'GET', '/x', notAllowed('/x', ['POST']));
  });

  test('when the path holds %2F, then it never fills a one-segment placeholder nor separates segments', () => {
    const routes = table(
      ['file', '/files/{name}', ['GET']],
      ['tree', '/tree/{path<.+>}', ['GET']],
      ['ab', '/a/b', ['GET']],
      ['encoded', '/x%2Fy', ['GET']],
    );
    expect(routes, 'GET', '/files/a%2Fb', notFound('/files/a%2Fb/'));
    expect(routes, 'GET', '/tree/a%2Fb/c', match('tree', { path: 'a/b/c' }));
    expect(routes, 'GET', '/a%2Fb', notFound('/a%2Fb/'));
    expect(routes, 'GET', '/x%2Fy', match('encoded'));
    expect(routes, 'GET', '/x%2fy', match('encoded'));
  });

  test('when the path is percent-encoded, then matching sees it decoded and parameters come back decoded', () => {
    const routes = table(['hello', '/hello/{name}', ['GET']], ['cafe', '/café', ['GET']]);
    expect(routes, 'GET', '/hello/J%C3%BCrgen', match('hello', { name: 'Jürgen' }));
    expect(routes, 'GET', '/hello/a%20b', match('hello', { name: 'a b' }));
    expect(routes, 'GET', '/hello/100%25', match('hello', { name: '100%' }));
    expect(routes, 'GET', '/hello/%252F', match('hello', { name: '%2F' }));
    expect(routes, 'GET', '/caf%C3%A9', match('cafe'));
    expect(routes, 'GET', '/%68ello/x', match('hello', { name: 'x' }));
  });

  test('when the percent-encoding is malformed, then nothing throws and the bytes count literally', () => {
    const routes = table(['hello', '/hello/{name}', ['GET']]);
    expect(routes, 'GET', '/hello/%E0%A4%A', match('hello', { name: '%E0%A4%A' }));
    expect(routes, 'GET', '/hello/%zz', match('hello', { name: '%zz' }));
    expect(routes, 'GET', '/hello/%FF', match('hello', { name: '%FF' }));
    expect(routes, 'GET', '/%', notFound('/%/'));
    expect(routes, 'GET', '/hello%', notFound('/hello%/'));
  });

  test('when only the case differs, then the path does not match', () => {
    const routes = table(['hello', '/Hello/{name}', ['GET']]);
    expect(routes, 'GET', '/Hello/x', match('hello', { name: 'x' }));
    expect(routes, 'GET', '/hello/x', notFound('/hello/x/'));
  });

  test('when the same path is matched twice, then each result has its own params object', () => {
    const matcher = build(table(['hello', '/hello/{name}', ['GET']], ['home', '/', ['GET'], { defaults: { a: '1' } }]));
    for (const path of ['/hello/x', '/']) {
      const first = matcher.match('GET', path);
      first.params.injected = 'yes';
      assert.not.ok('injected' in matcher.match('GET', path).params, path);
    }
  });

  test('when lookup() is asked instead of match(), then failures are returned, not thrown', () => {
    const matcher = build(table(['contact', '/contact', ['POST']]));
    assert.equal(matcher.lookup('GET', '/contact'), {
      type: 'method-not-allowed',
      path: '/contact',
      allowed: ['POST'],
    });
    assert.equal(matcher.lookup('GET', '/nope'), { type: 'not-found', path: '/nope/' });
    assert.equal(matcher.lookup('POST', '/contact'), match('contact'));
  });

  test.run();
}
