import fc from 'fast-check';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import {
  InvalidParameterError,
  MethodNotAllowedError,
  MissingParametersError,
  ResourceNotFoundError,
  RouteDefinitionError,
} from '../../core/errors.js';
import { compileMatcher } from '../../core/routing/compiled-matcher.js';
import { LinearMatcher } from '../../core/routing/linear-matcher.js';
import type { Matcher, MatchResult } from '../../core/routing/matcher.js';
import { RouteCollection } from '../../core/routing/route-collection.js';
import { UrlGenerator } from '../../core/routing/url-generator.js';
import { fuzzRuns } from '../helpers/corpus.js';
import { hostileTarget, method } from './fuzz-kernel.js';

// fuzz-request-target.test.ts fuzzes the demo app's routes through the kernel, and
// compiled-matcher.property.test.ts compares the two matchers on benign values. Here: random route
// tables met by hostile paths and methods, random route definitions, and random URL generation. The
// only errors ever thrown are the documented ones, with their documented data.

const WORDS = ['a', 'b', 'hello', '_profiler', 'caf%C3%A9', '%2e%2e', 'x.json'];
const REQUIREMENTS = ['', '<\\d+>', '<[ab]+>', '<.+>', '<[^/]*>', '<a|b/a>', '<[a-z%0-9]+>', '<.{5}>', '<\\p{L}+>'];

const definition = fc.record({
  parts: fc.array(
    fc.oneof(
      fc.constantFrom(...WORDS),
      fc.record({ requirement: fc.constantFrom(...REQUIREMENTS), before: fc.constantFrom('', 'v', 'a.') }),
    ),
    { maxLength: 4 },
  ),
  optional: fc.option(
    fc.record({ requirement: fc.constantFrom('', '<\\d+>', '<.+>'), fallback: fc.constantFrom('1', '', 'a') }),
    { nil: undefined },
  ),
  suffix: fc.constantFrom('', '', '/', '.json'),
  methods: fc.oneof(
    fc.constant([] as string[]),
    fc.subarray(['GET', 'POST', 'PUT', 'HEAD', 'delete'], { minLength: 1, maxLength: 2 }),
  ),
});

/** A valid table of 1 to 6 routes, in definition order. */
const table = fc.array(definition, { minLength: 1, maxLength: 6 }).map((defs) => {
  const routes = new RouteCollection();
  defs.forEach((d, i) => {
    let n = 0;
    const parts = d.parts.map((p) => (typeof p === 'string' ? p : `${p.before}{p${n++}${p.requirement}}`));
    const tail = d.optional ? [`{p${n++}${d.optional.requirement}?${d.optional.fallback}}`] : [];
    routes.add(`r${i}`, {
      path: `/${[...parts, ...tail].join('/')}${d.optional ? '' : d.suffix}`,
      methods: d.methods,
      controller: `C${i}`,
    });
  });
  return routes;
});

/** A hostile path as the adapter hands it to the router: the target without its query string. */
const hostilePath = hostileTarget.map((target) => target.split('?')[0]);

/** Runs `work`; a thrown error that is not one of `documented` fails the property with its class and message. */
function onlyDocumented<T>(what: string, documented: (new (...args: never[]) => Error)[], work: () => T): T | Error {
  try {
    return work();
  } catch (error) {
    assert.ok(
      documented.some((kind) => error instanceof kind),
      `${what} threw ${(error as Error)?.constructor?.name}: ${(error as Error)?.message}`,
    );
    return error as Error;
  }
}

const test = suite('the router under a property-based fuzz: nothing but the documented errors, ever');

test('when any table meets any hostile path and method, then match() returns or throws a routing error with its documented data, as lookup() says, in both matchers', () => {
  fc.assert(
    fc.property(table, fc.array(fc.tuple(method, hostilePath), { minLength: 1, maxLength: 8 }), (routes, requests) => {
      const compiled = compileMatcher(routes);
      const linear = new LinearMatcher(routes);
      for (const [m, path] of requests) {
        const where = `${m} ${JSON.stringify(path)}`;
        const results = ([compiled, linear] as Matcher[]).map((matcher) => {
          const lookup = matcher.lookup(m, path);
          const outcome = onlyDocumented(`match(${where})`, [ResourceNotFoundError, MethodNotAllowedError], () =>
            matcher.match(m, path),
          );
          if (outcome instanceof ResourceNotFoundError) {
            assert.equal(lookup, { type: 'not-found', path: outcome.path }, where);
            assert.is(outcome.message, `No routes found for "${outcome.path}"`);
            assert.is(outcome.code, 'APP_ERR_ROUTING_NOT_FOUND');
          } else if (outcome instanceof MethodNotAllowedError) {
            assert.equal(lookup, { type: 'method-not-allowed', path: outcome.path, allowed: outcome.allowed }, where);
            assert.ok(outcome.allowed.length > 0, `${where}: a 405 with nothing allowed`);
            for (const allowed of outcome.allowed) assert.is(allowed, allowed.toUpperCase());
          } else {
            const result = outcome as MatchResult;
            assert.equal(result, lookup, where);
            if (result.type === 'redirect')
              assert.ok(['GET', 'HEAD'].includes(m.toUpperCase()), `${where}: a redirect for ${m}`);
            for (const value of Object.values(result.params)) assert.type(value, 'string');
          }
          return lookup;
        });
        assert.equal(results[0], results[1], `${where}: the compiled matcher and the linear scan disagree`);
      }
    }),
    fuzzRuns(1500, 'fuzz-router-documented-errors 1'),
  );
});

test('when a route is defined from any path, requirement and method, then it is added or refused with a RouteDefinitionError only', () => {
  const piece = fc.oneof(
    fc.constantFrom(
      '/',
      '{',
      '}',
      '{a}',
      '{a?}',
      '{a<',
      '>',
      '<\\d+>',
      '{b<(>}',
      '{a}{a}',
      '?',
      '*',
      '%',
      '%zz',
      '..',
      '\0',
      'é',
    ),
    fc.string({ unit: 'binary', maxLength: 4 }),
  );
  fc.assert(
    fc.property(
      fc.array(piece, { maxLength: 8 }),
      fc.string({ maxLength: 8 }),
      fc.array(fc.string({ maxLength: 6 }), { maxLength: 2 }),
      (pieces, requirement, methods) => {
        const routes = new RouteCollection();
        const path = pieces.join('');
        const added = onlyDocumented(`add(${JSON.stringify(path)})`, [RouteDefinitionError], () =>
          routes.add('r', { path, methods, requirements: { a: requirement }, controller: 'C' }),
        );
        if (added instanceof RouteDefinitionError) {
          assert.is(added.code, 'APP_ERR_ROUTING_BAD_DEFINITION');
          assert.is(added.route, 'r');
          return;
        }
        const matcher = compileMatcher(routes);
        for (const probe of ['/', path, `/${path}`, '/a/b']) {
          onlyDocumented(
            `match(${JSON.stringify(probe)}) on ${JSON.stringify(path)}`,
            [ResourceNotFoundError, MethodNotAllowedError],
            () => matcher.match('GET', probe),
          );
        }
      },
    ),
    fuzzRuns(3000, 'fuzz-router-documented-errors 2'),
  );
});

test('when URLs are generated with any parameters, then the URL matches back or a documented generation error is thrown', () => {
  const value = fc.oneof(
    fc.string({ unit: 'binary', maxLength: 8 }),
    fc.constantFrom('1', '12', 'a', 'ab', '..', '.', '/', 'a/b', '%2F', '', 'é'),
  );
  fc.assert(
    fc.property(
      table,
      fc.dictionary(fc.constantFrom('p0', 'p1', 'p2', 'q'), value, { maxKeys: 4 }),
      fc.nat(5),
      (routes, params, pick) => {
        const route = routes.all()[pick % routes.size];
        const generator = new UrlGenerator(routes, 'http://fuzz.test');
        const url = onlyDocumented(`generate(${route.name})`, [MissingParametersError, InvalidParameterError], () =>
          generator.generate(route.name, params),
        );
        if (url instanceof Error) return;
        assert.type(url, 'string');
        assert.ok(url.startsWith('/'), url);
        onlyDocumented(
          `match of generated ${JSON.stringify(url)}`,
          [ResourceNotFoundError, MethodNotAllowedError],
          () => compileMatcher(routes).match(route.methods[0] ?? 'GET', url.split('?')[0]),
        );
      },
    ),
    fuzzRuns(1500, 'fuzz-router-documented-errors 3'),
  );
});

test.run();
