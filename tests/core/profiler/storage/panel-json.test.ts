import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { jsonNumber } from '../../../../core/profiler/storage/json-parts.js';
import {
  dumpJson,
  httpClientJson,
  logJson,
  requestJson,
  routerJson,
  securityJson,
  timeJson,
} from '../../../../core/profiler/storage/panel-json.js';
import { storedJson } from '../../../../core/profiler/storage/stored-json.js';
import { toStoredForm } from '../../../../core/profiler/storage/stored-form.js';
import { serialiseOnce } from '../../../../core/debug/request-recording.js';
import type { Profile } from '../../../../core/profiler/profile.js';

const test = suite('the panels every profile has are written field by field, as JSON.stringify writes them');

test('when a number is a whole number of millionths or any other, then jsonNumber writes what JSON.stringify does', () => {
  const numbers = [
    0,
    -0,
    1,
    -1,
    0.000001,
    0.5,
    12.5,
    0.022731,
    -2.5,
    1e-7,
    5e-324,
    1e21,
    123456789.123456,
    999999999.999999,
    1e9,
    1795683237526.206,
    Number.NaN,
    Number.POSITIVE_INFINITY,
    Number.NEGATIVE_INFINITY,
    0.1 + 0.2,
    2 ** 53,
    1 / 3,
  ];
  let seed = 7;
  const random = () => (seed = (seed * 16807) % 2147483647) / 2147483647;
  for (let i = 0; i < 20_000; i++) {
    numbers.push(
      Math.round(random() * 5000 * 1e6) / 1e6,
      -Math.round(random() * 1e6) / 1e6,
      Math.round(random() * 1e15) / 1e6,
      random() * 1000,
    );
  }
  for (const value of numbers) assert.is(jsonNumber(value), JSON.stringify(value), String(value));
});

const phase = (name: string, start: number, duration: number | null) => ({ name, start, duration });

test("when the panels have their collectors' shapes, then each text is JSON.stringify's, strings escaped", () => {
  const odd = 'a "quoted" \\ \n\u2028 ✓ \ud800 <script>';
  const context = serialiseOnce({ event: 'kernel.request', listener: odd });
  const cases: [(panel: never) => string | undefined, unknown][] = [
    [
      timeJson,
      {
        duration: 0.533374,
        phases: [phase('routing', 0.103581, 0.376989), phase(odd, 1e-7, -0)],
        spans: [phase('db', 2, null)],
        memory: { rss: 78151680, heapUsed: 1.5 },
      },
    ],
    [timeJson, { duration: 1, phases: [], spans: [], memory: null }],
    [
      logJson,
      {
        records: [
          {
            time: 1795683237526,
            level: 'INFO',
            channel: 'request',
            message: odd,
            context: { route: 'hello', nested: { a: [1, null] } },
          },
          [0, 1, 0.5],
          { time: 1.25, level: 'DEBUG', channel: 'event', message: 'Notified', context },
        ],
        errors: 0,
        warnings: 2,
      },
    ],
    [
      routerJson,
      {
        route: 'hello',
        params: { name: odd, '1': 'x' },
        redirect: null,
        explain: null,
        definition: serialiseOnce({
          path: '/hello/{name}',
          methods: ['GET'],
          requirements: {},
          defaults: {},
          controller: 'hello',
        }),
      },
    ],
    [routerJson, { route: null, params: {}, redirect: '/a/', explain: [{ route: 'x', why: odd }], definition: null }],
    [securityJson, { decision: 'denied', rule: odd, message: null }],
    [httpClientJson, { calls: [], totalTime: 0, errors: 0 }],
    [dumpJson, { dumps: [] }],
    [
      requestJson,
      {
        method: 'GET',
        url: `http://h/${odd}`,
        server: { address: '127.0.0.1', port: 8000 },
        path: '/p',
        route: null,
        routeParams: {},
        controller: null,
        query: { a: ['1', odd], b: 'c' },
        headers: Object.assign(Object.create(null), { host: 'h', __proto__: 'x' }),
        cookies: {},
        body: { size: 3, contentType: null, truncated: false, text: odd },
        response: {
          status: 404,
          statusText: 'Not Found',
          headers: { 'X-A': 'b' },
          size: null,
          contentType: 'text/html',
          title: odd,
          structure: { kind: 'html', nodes: 3, hash: 'ab' },
          body: null,
        },
        redacted: ['header authorization'],
      },
    ],
  ];
  for (const [write, panel] of cases) assert.is(write(panel as never), JSON.stringify(panel));
});

test('when a panel is of another shape, then it is left to JSON.stringify', () => {
  class Marked {
    toJSON() {
      return 'mine';
    }
  }
  assert.is(timeJson({ phases: [], duration: 1, spans: [], memory: null } as never), undefined);
  assert.is(
    timeJson({ duration: 1, phases: [{ name: 'x', start: '1', duration: 1 }], spans: [], memory: null } as never),
    undefined,
  );
  assert.is(timeJson({ duration: 1, phases: [], spans: [], memory: { rss: '1' } } as never), undefined);
  assert.is(logJson({ records: [[0, 1]], errors: 0, warnings: 0 } as never), undefined);
  assert.is(
    logJson({
      records: [{ time: 1, level: 'INFO', channel: 'c', message: 'm', context: {}, extra: 1 }],
      errors: 0,
      warnings: 0,
    } as never),
    undefined,
  );
  assert.is(logJson({ records: [new Marked()], errors: 0, warnings: 0 } as never), undefined);
  assert.is(
    routerJson({ route: 'r', params: { a: 1 }, redirect: null, explain: null, definition: null } as never),
    undefined,
  );
  assert.is(securityJson({ decision: 'none', rule: null, message: null, more: 1 } as never), undefined);
  assert.is(httpClientJson({ calls: [{}], totalTime: 0, errors: 0 } as never), undefined);
  assert.is(dumpJson({ dumps: [{}] } as never), undefined);
  assert.is(requestJson({ method: 'GET' } as never), undefined);
  assert.is(securityJson(new Marked() as never), undefined);
});

test("when a profile carries fields or panels of its own, then its stored JSON is still JSON.stringify's of its stored form", () => {
  const base = {
    version: 1,
    token: 'abc',
    status: 200,
    ip: '::1',
    method: 'GET',
    url: 'http://h/',
    time: 1795683237526.206,
    duration: 0.5,
  };
  const collectors = {
    log: { records: [], errors: 0, warnings: 0 },
    security: { decision: 'none', rule: null, message: null },
    custom: { mine: { rows: [1] } },
    dump: { dumps: [{ file: null, line: 1, time: null, value: { type: 'null' } }] },
  };
  const profiles = [
    { ...base, collectors },
    { ...base, extra: true, collectors },
    { collectors, ...base },
    { ...base, token: 'x\u2028', collectors: { ...collectors, time: { duration: 'slow' } } },
  ] as unknown as Profile[];
  for (const profile of profiles) assert.is(storedJson(profile), JSON.stringify(toStoredForm(profile)));
});

test.run();
