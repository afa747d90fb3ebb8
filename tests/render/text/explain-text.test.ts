import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { RouteExplanation } from '../../../core/profiler/profile.js';
import { renderExplainText } from '../../../render/text/index.js';

const test = suite('renderExplainText');

const explanations: RouteExplanation[] = [
  { name: 'home', path: '/', methods: [], verdict: 'path', detail: 'Path "/" does not match' },
  {
    name: 'contact',
    path: '/contact',
    methods: ['POST'],
    verdict: 'method',
    detail: 'Method "GET" does not match any of the required methods (POST)',
  },
  { name: 'hello', path: '/hello/{name}', methods: ['GET'], verdict: 'match', detail: 'Route matches!' },
];

test('should print one line per route with match/miss and why, then name the matching route', () => {
  assert.is(
    renderExplainText(explanations, { color: false }),
    [
      '       Route    Method  Path           Why',
      '-----  -------  ------  -------------  --------------------------------------------------------------',
      'miss   home     ANY     /              Path "/" does not match',
      'miss   contact  POST    /contact       Method "GET" does not match any of the required methods (POST)',
      'match  hello    GET     /hello/{name}  Route matches!',
      '',
      'Route "hello" matches.',
      '',
    ].join('\n'),
  );
});

test('when nothing matches, then the last line is "No route matches."', () => {
  const text = renderExplainText(explanations.slice(0, 2), { color: false });
  assert.ok(text.endsWith('\nNo route matches.\n'));
  assert.is(renderExplainText([], { color: false }), 'No route matches.\n');
});

test.run();
