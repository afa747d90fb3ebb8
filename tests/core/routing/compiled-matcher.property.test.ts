import fc from 'fast-check';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { compileMatcher } from '../../../core/routing/compiled-matcher.js';
import { explain } from '../../../core/routing/explain.js';
import { LinearMatcher } from '../../../core/routing/linear-matcher.js';
import type { Matcher } from '../../../core/routing/matcher.js';
import { RouteCollection } from '../../../core/routing/route-collection.js';
import { fuzzRuns } from '../../helpers/corpus.js';

// Random route tables over a tiny alphabet, so that routes collide, shadow each other and differ
// only by method; random requests, half of them built from a route of the table.
const WORDS = ['a', 'b', 'ab', 'x'];
const VALUES = [
  'a',
  'b',
  '1',
  '12',
  'a.b',
  'x-1',
  'a%2Fb',
  '%61',
  '%zz',
  '%E0%A4%A',
  'caf%C3%A9',
  '%2f',
  '',
  '%25',
  '%252F',
];
const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'PATCH', 'get', 'OPTIONS'];
const REQUIREMENTS = ['', '<\\d+>', '<[ab]+>', '<.+>', '<[^/]*>', '<a|b/a>', '<[a-z%0-9]+>', '<.{5}>'];

interface Definition {
  name: string;
  path: string;
  methods: string[];
}

const placeholder = fc.record({
  requirement: fc.constantFrom(...REQUIREMENTS),
  before: fc.constantFrom('', '', 'v', 'a.'),
});
const optional = fc.record({
  requirement: fc.constantFrom('', '<\\d+>', '<.+>', '<[ab]*>', '<.{5}>'),
  fallback: fc.constantFrom('1', '', 'a'),
});
const definitionOver = (words: readonly string[]) =>
  fc.record({
    parts: fc.array(fc.oneof(fc.constantFrom(...words), placeholder), { maxLength: 4 }),
    tail: fc.array(optional, { maxLength: 2 }),
    suffix: fc.constantFrom('', '', '', '/', '.json', '-{z?q}'),
    methods: fc.oneof(
      fc.constant([] as string[]),
      fc.subarray(['GET', 'POST', 'PUT', 'HEAD', 'delete', 'PATCH'], { minLength: 1, maxLength: 2 }),
    ),
  });

const tableOver = (words: readonly string[], minLength: number, maxLength: number): fc.Arbitrary<Definition[]> =>
  fc.array(definitionOver(words), { minLength, maxLength }).map((defs) =>
    defs.map((d, i) => {
      let n = 0;
      const parts = d.parts.map((p) => (typeof p === 'string' ? p : `${p.before}{p${n++}${p.requirement}}`));
      const tail = d.tail.map((t) => `{p${n++}${t.requirement}?${t.fallback}}`);
      const suffix = d.tail.length > 0 && d.suffix !== '-{z?q}' ? '' : d.suffix;
      return { name: `r${i}`, path: `/${[...parts, ...tail].join('/')}${suffix}`, methods: d.methods };
    }),
  );
const table = tableOver(WORDS, 1, 8);
// Wider tables: nodes with many static children (picked by first char, non-ASCII ones too).
const WIDE_WORDS = [...WORDS, 'ba', 'bb', 'c', 'ca', 'd', 'e', 'é', 'éa'];
const wideTable = tableOver(WIDE_WORDS, 16, 40);
// Siblings alike in length, first and last char (one static-child slot), and prefixes of each other.
const ALIKE_WORDS = ['axb', 'ayb', 'azb', 'a', 'ab', 'abb', 'v1', 'v10', 'v2', 'é', 'éé'];
const alikeTable = tableOver(ALIKE_WORDS, 8, 30);

/** A request path from a normalised route path: placeholders replaced by random values, trailing slashes added. */
function concrete(template: string, values: string[], slashes: string): string {
  let i = 0;
  return template.replace(/\{[^}]*\}/g, () => values[i++ % values.length]) + slashes;
}

const request = (defs: Definition[], words: readonly string[] = WORDS) =>
  fc.record({
    method: fc.constantFrom(...METHODS),
    path: fc.oneof(
      fc
        .tuple(
          fc.constantFrom(
            ...collection(defs)
              .all()
              .map((r) => r.path),
          ),
          fc.array(fc.constantFrom(...VALUES), { minLength: 1, maxLength: 4 }),
          fc.constantFrom('', '', '/', '//'),
        )
        .map(([template, values, slashes]) => concrete(template, values, slashes)),
      fc
        .tuple(fc.array(fc.constantFrom(...words, ...VALUES), { maxLength: 4 }), fc.constantFrom('', '/', '//'))
        .map(([segments, slashes]) => `/${segments.join('/')}${slashes}`),
    ),
  });

const scenario = table.chain((defs) =>
  fc.tuple(fc.constant(defs), fc.array(request(defs), { minLength: 1, maxLength: 6 })),
);
const alikeScenario = alikeTable.chain((defs) =>
  fc.tuple(fc.constant(defs), fc.array(request(defs, ALIKE_WORDS), { minLength: 1, maxLength: 12 })),
);
const wideScenario = wideTable.chain((defs) =>
  fc.tuple(fc.constant(defs), fc.array(request(defs, WIDE_WORDS), { minLength: 1, maxLength: 12 })),
);

function collection(defs: Definition[]): RouteCollection {
  const routes = new RouteCollection();
  for (const d of defs) routes.add(d.name, { path: d.path, methods: d.methods, controller: `C${d.name}` });
  return routes;
}

/** The result, or the thrown error's class, message, path and allowed methods. */
function outcome(matcher: Matcher, method: string, path: string): unknown {
  try {
    return matcher.match(method, path);
  } catch (error) {
    const e = error as Error & { allowed?: readonly string[]; path?: string };
    return { error: e.constructor.name, message: e.message, path: e.path, allowed: e.allowed };
  }
}

const test = suite('CompiledMatcher against the linear reference (property)');

test('when tables and requests are random, then the compiled matcher answers exactly like the linear scan', () => {
  const runs = fuzzRuns(2500, 'compiled matcher: random');
  let lookups = 0;
  fc.assert(
    fc.property(scenario, ([defs, requests]) => {
      const routes = collection(defs);
      const linear = new LinearMatcher(routes);
      const compiled = compileMatcher(routes);
      for (const { method, path } of requests) {
        lookups += 1;
        assert.equal(outcome(compiled, method, path), outcome(linear, method, path), `${method} ${path}`);
        assert.equal(compiled.lookup(method, path), linear.lookup(method, path), `${method} ${path}`);
      }
    }),
    runs,
  );
  assert.ok(lookups >= runs.numRuns, `${lookups} lookups`);
});

test('when tables are wide (16 to 40 routes, many static children per segment), then the compiled matcher answers exactly like the linear scan', () => {
  fc.assert(
    fc.property(wideScenario, ([defs, requests]) => {
      const routes = collection(defs);
      const linear = new LinearMatcher(routes);
      const compiled = compileMatcher(routes);
      for (const { method, path } of requests)
        assert.equal(outcome(compiled, method, path), outcome(linear, method, path), `${method} ${path}`);
    }),
    fuzzRuns(600, 'compiled matcher: wide'),
  );
});

test('when static siblings share length, first and last char or prefix one another, then the compiled matcher answers exactly like the linear scan', () => {
  fc.assert(
    fc.property(alikeScenario, ([defs, requests]) => {
      const routes = collection(defs);
      const linear = new LinearMatcher(routes);
      const compiled = compileMatcher(routes);
      for (const { method, path } of requests)
        assert.equal(compiled.lookup(method, path), linear.lookup(method, path), `${method} ${path}`);
    }),
    fuzzRuns(600, 'compiled matcher: alike'),
  );
});

test('when a table is re-added from its normalised routes, then it matches the same way', () => {
  fc.assert(
    fc.property(scenario, ([defs, requests]) => {
      const routes = collection(defs);
      const copy = new RouteCollection();
      for (const r of routes.all()) {
        copy.add(r.name, {
          path: r.path,
          methods: r.methods,
          requirements: { ...r.requirements },
          defaults: { ...r.defaults },
          controller: r.controller,
        });
      }
      const original = new LinearMatcher(routes);
      const again = compileMatcher(copy);
      for (const { method, path } of requests)
        assert.equal(outcome(again, method, path), outcome(original, method, path), `${method} ${path}`);
    }),
    fuzzRuns(500, 'compiled matcher: re-added'),
  );
});

test('when explain() is asked the same request, then its only "match" is the matched route', () => {
  fc.assert(
    fc.property(scenario, ([defs, requests]) => {
      const routes = collection(defs);
      const matcher = compileMatcher(routes);
      for (const { method, path } of requests) {
        const result = matcher.lookup(method, path);
        const matched = explain(routes, method, path)
          .filter((e) => e.verdict === 'match')
          .map((e) => e.name);
        assert.equal(matched, result.type === 'match' ? [result.route] : [], `${method} ${path}`);
        if (result.type === 'redirect') {
          const redirect = explain(routes, method, path).find((e) => e.name === result.route);
          assert.is(redirect?.detail, `Would match with the trailing slash toggled: 301 to ${result.path}`);
        }
      }
    }),
    fuzzRuns(300, 'compiled matcher: explain'),
  );
});

test('when the path is any string (unicode, controls, broken escapes, no leading slash), then match() answers or throws one of the two routing errors', () => {
  const anyPath = fc.oneof(
    fc.string({ unit: 'binary', maxLength: 24 }),
    fc
      .array(fc.constantFrom(...WORDS, ...VALUES, '/', '%', '%0', '..', '\n', '\u2028', '\ud800'), { maxLength: 8 })
      .map((p) => p.join('')),
  );
  fc.assert(
    fc.property(
      table,
      fc.array(fc.tuple(fc.constantFrom(...METHODS, '', 'BREW'), anyPath), { minLength: 1, maxLength: 6 }),
      (defs, requests) => {
        const routes = collection(defs);
        const linear = new LinearMatcher(routes);
        const compiled = compileMatcher(routes);
        for (const [method, path] of requests) {
          const result = outcome(compiled, method, path) as { error?: string };
          if (result.error !== undefined)
            assert.ok(
              ['ResourceNotFoundError', 'MethodNotAllowedError'].includes(result.error),
              `${method} ${JSON.stringify(path)}: ${result.error}`,
            );
          assert.equal(result, outcome(linear, method, path), `${method} ${JSON.stringify(path)}`);
        }
      },
    ),
    fuzzRuns(1000, 'compiled matcher: any-path'),
  );
});

test.run();
