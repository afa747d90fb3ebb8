import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { renderRouteTable, type RouteRow } from '../../../render/text/index.js';

const test = suite('renderRouteTable');

const routes: RouteRow[] = [
  { name: 'home', methods: [], path: '/', requirements: {}, defaults: {}, controller: 'homeController' },
  {
    name: 'hello',
    methods: ['GET', 'HEAD'],
    path: '/hello/{name}',
    requirements: { name: '[a-z]+' },
    defaults: { name: 'world' },
    controller: 'helloController',
  },
];

test('should print Name, Method (ANY when empty), Path (with requirements and defaults) and Controller in route order', () => {
  assert.is(
    renderRouteTable(routes, { color: false }),
    [
      'Name   Method    Path                         Controller',
      '-----  --------  ---------------------------  ---------------',
      'home   ANY       /                            homeController',
      'hello  GET|HEAD  /hello/{name<[a-z]+>?world}  helloController',
      '',
    ].join('\n'),
  );
});

test('when there are no routes, then it says so', () => {
  assert.is(renderRouteTable([], { color: false }), 'No routes are defined.\n');
});

test('when color is true, then widths still line up (codes take no column)', () => {
  const strip = (t: string) => t.replace(/\x1b\[[0-9;]*m/g, '');
  assert.is(strip(renderRouteTable(routes, { color: true })), renderRouteTable(routes, { color: false }));
});

test.run();
