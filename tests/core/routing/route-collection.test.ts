import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { RouteDefinitionError } from '../../../core/errors.js';
import { compileMatcher } from '../../../core/routing/compiled-matcher.js';
import { LinearMatcher } from '../../../core/routing/linear-matcher.js';
import type { RouteDefinition } from '../../../core/routing/route.js';
import { RouteCollection } from '../../../core/routing/route-collection.js';
import { UrlGenerator } from '../../../core/routing/url-generator.js';

/** The RouteDefinitionError thrown by adding `definition` as `name` to a collection holding a route "home". */
function definitionError(
  name: string,
  definition: Omit<RouteDefinition, 'controller'>,
): { route: string; message: string } {
  const routes = new RouteCollection().add('home', { path: '/', controller: 'c' });
  let caught: unknown = null;
  try {
    routes.add(name, { ...definition, controller: 'c' });
  } catch (error) {
    caught = error;
  }
  assert.instance(caught, RouteDefinitionError, `route "${name}" was accepted`);
  const e = caught as RouteDefinitionError;
  assert.is(e.code, 'APP_ERR_ROUTING_BAD_DEFINITION');
  return { route: e.route, message: e.message };
}

const bad = suite('RouteCollection rejects bad definitions when they are added');

// A problem ending with ": " is a prefix: the rest is the JavaScript engine's own SyntaxError text.
const cases: [string, string, Omit<RouteDefinition, 'controller'>, string][] = [
  ['a duplicate name', 'home', { path: '/other' }, 'a route with this name is already defined'],
  ['a path without a leading slash', 'relative', { path: 'posts' }, 'the path must start with "/" ("posts" given)'],
  [
    'an unclosed brace',
    'open',
    { path: '/posts/{id' },
    'unbalanced braces in "/posts/{id": the "{" at offset 7 is never closed',
  ],
  [
    'a closing brace without opening',
    'close',
    { path: '/posts/id}' },
    'unbalanced braces in "/posts/id}": the "}" at offset 9 has no opening "{"',
  ],
  [
    'nested braces',
    'nested',
    { path: '/posts/{a{b}}' },
    'unbalanced braces in "/posts/{a{b}}": the "{" at offset 7 is never closed',
  ],
  [
    'an inline requirement without ">"',
    'req',
    { path: '/posts/{id<\\d+}' },
    'the inline requirement of "{id}" in "/posts/{id<\\d+}" is not closed by ">"',
  ],
  [
    'an empty placeholder name',
    'empty',
    { path: '/posts/{}' },
    'a placeholder in "/posts/{}" has an empty name (offset 7)',
  ],
  [
    'a placeholder name that is not an identifier',
    'dash',
    { path: '/posts/{post-id}' },
    '"{post-id}" in "/posts/{post-id}" is not a valid placeholder name (letters, digits and "_", not starting with a digit)',
  ],
  [
    'a placeholder name starting with a digit',
    'digit',
    { path: '/posts/{1d}' },
    '"{1d}" in "/posts/{1d}" is not a valid placeholder name (letters, digits and "_", not starting with a digit)',
  ],
  [
    'a repeated placeholder',
    'repeat',
    { path: '/posts/{id}/{id}' },
    'the placeholder "{id}" appears more than once in "/posts/{id}/{id}"',
  ],
  [
    'an invalid inline requirement',
    'inline',
    { path: '/posts/{id<\\d+(>}' },
    'the requirement for "{id}" ("\\d+(") is not a valid regular expression: ',
  ],
  [
    'an invalid separate requirement',
    'separate',
    { path: '/posts/{id}', requirements: { id: '[a-' } },
    'the requirement for "{id}" ("[a-") is not a valid regular expression: ',
  ],
  [
    'a requirement breaking out of its group',
    'breakout',
    { path: '/posts/{id}', requirements: { id: 'a)(b' } },
    'the requirement for "{id}" ("a)(b") is not a valid regular expression: ',
  ],
  [
    'requirements whose groups clash with the placeholders',
    'clash',
    { path: '/{id<(?<id>\\d+)>}' },
    'the requirements of "/{id}" do not combine into one regular expression: ',
  ],
  ['an empty requirement', 'blank', { path: '/posts/{id<>}' }, 'the requirement for "{id}" is empty'],
  [
    'a requirement for a name that is not an identifier',
    'key',
    { path: '/posts/{id}', requirements: { 'not valid': '\\d+' } },
    'the requirement key "not valid" is not a valid placeholder name',
  ],
  [
    'two different requirements for one placeholder',
    'twice',
    { path: '/posts/{id<\\d+>}', requirements: { id: '[a-z]+' } },
    'the requirement for "{id}" is given twice: "\\d+" inline and "[a-z]+" in requirements',
  ],
  [
    'two different defaults for one placeholder',
    'defaults',
    { path: '/posts/{p?1}', defaults: { p: '2' } },
    'the default for "{p}" is given twice: "1" inline and "2" in defaults',
  ],
  ['a method that is not a token', 'method', { path: '/x', methods: ['G T'] }, '"G T" is not a valid HTTP method'],
];

for (const [what, name, definition, problem] of cases) {
  bad(`when the definition has ${what}, then add() throws naming the route and the problem`, () => {
    const { route, message } = definitionError(name, definition);
    assert.is(route, name);
    if (problem.endsWith(': '))
      assert.ok(
        message.startsWith(`Route "${name}": ${problem}`) && message.length > `Route "${name}": ${problem}`.length,
        message,
      );
    else assert.is(message, `Route "${name}": ${problem}`);
  });
}

bad('when a definition is rejected, then the collection is unchanged', () => {
  const routes = new RouteCollection().add('a', { path: '/a', controller: 'c' });
  assert.throws(() => routes.add('b', { path: '/b/{', controller: 'c' }));
  assert.is(routes.size, 1);
  assert.is(routes.get('b'), undefined);
});

bad.run();

// ---

const normal = suite('RouteCollection keeps normalised routes in definition order');

normal('when inline requirements and defaults are used, then the path is normalised and they are merged in', () => {
  const routes = new RouteCollection().add('archive', {
    path: '/archive/{year<^\\d{4}$>?2024}/{month<\\d+>?}',
    methods: ['get', 'HEAD', 'GET'],
    requirements: { year: '^\\d{4}$' },
    defaults: { _format: 'html' },
    controller: 'Archive',
  });
  const route = routes.get('archive')!;
  assert.is(route.path, '/archive/{year}/{month}');
  assert.equal(route.requirements, { year: '\\d{4}', month: '\\d+' });
  assert.equal(route.defaults, { year: '2024', month: '', _format: 'html' });
  assert.equal(route.methods, ['GET', 'HEAD']);
  assert.equal(route.variables, ['year', 'month']);
  assert.is(route.controller, 'Archive');
});

normal('when routes are added, then all() lists them in definition order and size counts them', () => {
  const routes = new RouteCollection()
    .add('b', { path: '/b', controller: 'c' })
    .add('a', { path: '/a', controller: 'c' })
    .add('c', { path: '/c/{x}', controller: 'c' });
  assert.equal(
    routes.all().map((r) => r.name),
    ['b', 'a', 'c'],
  );
  assert.is(routes.size, 3);
  assert.is(routes.get('a')!.path, '/a');
});

normal(
  'when a normalised route is added again with its requirements and defaults, then it compiles to the same route',
  () => {
    const original = new RouteCollection()
      .add('r', { path: '/p/{id<\\d+>}/{page?1}', methods: ['PUT'], controller: 'c' })
      .get('r')!;
    const again = new RouteCollection()
      .add('r', {
        path: original.path,
        methods: original.methods,
        requirements: { ...original.requirements },
        defaults: { ...original.defaults },
        controller: original.controller,
      })
      .get('r')!;
    assert.is(again.regex.source, original.regex.source);
    assert.equal(again.requirements, original.requirements);
    assert.equal(again.defaults, original.defaults);
    assert.equal(again.methods, original.methods);
  },
);

normal.run();

// ---

const names = suite('placeholder names that are also Object.prototype keys');

names('when placeholders are named "constructor" or "toString", then they behave like any other name', () => {
  const routes = new RouteCollection().add('odd', { path: '/{constructor}/{toString?x}', controller: 'c' });
  const route = routes.get('odd')!;
  assert.equal(route.requirements, {});
  assert.is(route.firstOptional, 1);
  for (const matcher of [new LinearMatcher(routes), compileMatcher(routes)]) {
    assert.equal(matcher.match('GET', '/a').params, { constructor: 'a', toString: 'x' });
  }
  assert.is(new UrlGenerator(routes).generate('odd', { constructor: 'a' }), '/a');
  assert.throws(() => routes.add('proto', { path: '/{__proto__}', controller: 'c' }), /not a valid placeholder name/);
});

names.run();
