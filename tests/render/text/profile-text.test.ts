import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { Profile } from '../../../core/profiler/profile.js';
import { BUILT_IN_PANEL_NAMES } from '../../../panels/registry.js';
import { renderProfileText } from '../../../panels/profile-text.js';
import { notFoundProfile, sampleProfile, STARTED } from './sample-profile.js';

const ANSI = /\x1b\[/;
const stripAnsi = (text: string) => text.replace(/\x1b\[[0-9;]*m/g, '');
const plain = { color: false };

// ---
const header = suite('renderProfileText: header');

header('should start with token, request line, status and UTC time', () => {
  const text = renderProfileText(notFoundProfile(), 'request', plain);
  assert.ok(
    text.startsWith(
      [
        'Token    0f9e8d',
        'Request  GET http://127.0.0.1:8000/robots.txt',
        'Status   404 Not Found',
        'IP       127.0.0.1',
        'Time     2024-05-01 12:00:00 UTC (12.3 ms)',
        '',
      ].join('\n'),
    ),
    text,
  );
});

header(
  'when color is false, then no panel holds an ANSI code; with color, stripping the codes gives the plain text',
  () => {
    for (const panel of BUILT_IN_PANEL_NAMES) {
      for (const profile of [sampleProfile(), notFoundProfile()]) {
        const text = renderProfileText(profile, panel, plain);
        assert.not.match(text, ANSI, panel);
        const colored = renderProfileText(profile, panel, { color: true });
        assert.match(colored, ANSI, panel);
        assert.is(stripAnsi(colored), text, panel);
      }
    }
  },
);

header('when color is true, then each log level has its colour, INFO green as in app serve', () => {
  const profile = sampleProfile();
  const levels = ['DEBUG', 'INFO', 'WARNING', 'ERROR'] as const;
  profile.collectors.log.records = levels.map((level, i) => ({
    time: profile.time + i,
    level,
    channel: 'app',
    message: `m${i}`,
    context: {},
  }));
  const text = renderProfileText(profile, 'log', { color: true });
  for (const [level, code] of [
    ['DEBUG', 2],
    ['INFO', 32],
    ['WARNING', 33],
    ['ERROR', 31],
  ] as const)
    assert.ok(text.includes(`\x1b[${code}m${level}\x1b[`), level);
});

header.run();

// ---
const exception = suite('renderProfileText: exception panel');

exception('when a 404 wraps ResourceNotFoundError, then both messages show and [2/2] comes before [1/2]', () => {
  const text = renderProfileText(notFoundProfile(), 'exception', plain);
  assert.ok(text.includes('No route found for "GET http://127.0.0.1:8000/robots.txt"'));
  assert.ok(text.includes('No routes found for "/robots.txt/"'));
  const two = text.indexOf('[2/2] NotFoundHttpError');
  const one = text.indexOf('[1/2] ResourceNotFoundError');
  assert.ok(two !== -1 && one !== -1 && two < one, text);
});

exception('should print frames as "at fn (file:line)" under their exception', () => {
  const text = renderProfileText(notFoundProfile(), 'exception', plain);
  const trace = text.slice(text.indexOf('[1/2]'));
  assert.ok(trace.includes('    at CompiledMatcher.match (core/routing/compiled-matcher.ts:40)\n'));
  assert.ok(trace.includes('    at process.processTicksAndRejections (node:internal/process/task_queues:95)\n'));
});

exception('should end with the log table of the request', () => {
  const text = renderProfileText(notFoundProfile(), 'exception', plain);
  const log = text.slice(text.indexOf('Logs (1 record, 1 error, 0 warnings)'));
  assert.match(log, /^Time {6}Level {2}Channel {2}Message$/m);
  assert.match(log, /^12:00:02 {2}ERROR {2}request {2}Uncaught NotFoundHttpError/m);
});

exception('when only one exception was thrown, then its trace carries no [n/total] number', () => {
  const base = sampleProfile();
  const profile: Profile = {
    ...base,
    status: 500,
    collectors: {
      ...base.collectors,
      exception: {
        chain: [
          {
            class: 'TypeError',
            message: 'stock is undefined',
            status: 500,
            headers: {},
            frames: [{ function: 'checkStock', file: 'app/shop.ts', line: 7, column: null, kind: 'app' }],
          },
        ],
      },
    },
  };
  const text = renderProfileText(profile, 'exception', plain);
  assert.not.match(text, /\[\d+\/\d+\]/);
  assert.ok(text.includes('TypeError\n  stock is undefined\n    at checkStock (app/shop.ts:7)\n'), text);
});

exception('when no exception was thrown, then it says so', () => {
  assert.ok(
    renderProfileText(sampleProfile(), 'exception', plain).includes(
      'No exception was thrown and caught during the request.\n',
    ),
  );
});

exception.run();

// ---
const panels = suite('renderProfileText: other panels');

panels('request: headers, route, response and the redacted list', () => {
  const text = renderProfileText(sampleProfile(), 'request', plain);
  for (const line of [
    'Route       hello',
    'Param name  world',
    'authorization  REDACTED',
    'Status        200 OK',
    'Size          42 bytes',
    'Redacted\n--------\nheader authorization\n',
  ]) {
    assert.ok(text.includes(line), line);
  }
});

panels('request: the body is shown with its type and size, line breaks kept', () => {
  const base = sampleProfile();
  const profile: Profile = {
    ...base,
    collectors: {
      ...base.collectors,
      request: {
        ...base.collectors.request,
        body: { size: 9, contentType: 'text/plain', text: 'one\ntwo', truncated: true },
      },
    },
  };
  assert.ok(
    renderProfileText(profile, 'request', plain).includes('Body\n----\ntext/plain, 9 bytes, truncated\none\ntwo\n'),
  );
});

panels('when a recorded value holds escape sequences, then they are printed as visible escapes', () => {
  const base = sampleProfile();
  const profile: Profile = {
    ...base,
    collectors: {
      ...base.collectors,
      request: { ...base.collectors.request, headers: { 'x-evil': '\x1b[2J\x1b]0;owned\x07' } },
    },
  };
  const text = renderProfileText(profile, 'request', plain);
  assert.not.ok(text.includes('\x1b'));
  assert.ok(text.includes('x-evil  \\x1b[2J\\x1b]0;owned\\x07'));
});

panels('log: HH:MM:SS, level, channel, message with its context as JSON', () => {
  const text = renderProfileText(sampleProfile(), 'log', plain);
  assert.ok(text.includes('12:00:01  DEBUG  request  Matched route "hello". {"route":"hello"}\n'), text);
});

panels('time: phases (and listener calls) with kind, start, duration and a bar offset by the start', () => {
  const text = renderProfileText(sampleProfile(), 'time', plain);
  assert.ok(text.includes('Total  12.3 ms'));
  assert.match(text, /^phase {5}routing +0\.00 ms {3}1\.00 ms {2}█+$/m);
  assert.match(text, /^phase {5}controller +2\.00 ms {3}8\.00 ms {2} +█+$/m);
  assert.match(text, /^listener {2}kernel\.request · RouterListener::onKernelRequest +0\.00 ms +0\.25 ms +█+$/m);
});

panels('events: each event with its listeners and durations', () => {
  const text = renderProfileText(sampleProfile(), 'events', plain);
  assert.ok(text.includes('kernel.request\n  0.25 ms  RouterListener::onKernelRequest\n'));
});

panels('router: the matched route and params, or why each route missed', () => {
  assert.ok(renderProfileText(sampleProfile(), 'router', plain).includes('Route       hello\n'));
  const missed = renderProfileText(notFoundProfile(), 'router', plain);
  assert.match(missed, /^miss {2}hello {2}GET {5}\/hello\/\{name\} {2}Path "\/hello\/\{name\}" does not match$/m);
  assert.ok(missed.endsWith('No route matches.\n'));
});

panels('security: the decision and its rule', () => {
  const base = sampleProfile();
  const profile: Profile = {
    ...base,
    status: 403,
    collectors: { ...base.collectors, security: { decision: 'denied', rule: '^/admin', message: 'Access denied.' } },
  };
  assert.ok(
    renderProfileText(profile, 'security', plain).includes(
      'Decision  Denied\nRule      ^/admin\nMessage   Access denied.\n',
    ),
  );
  assert.ok(renderProfileText(sampleProfile(), 'security', plain).includes('No access rule applied to the request.'));
});

panels('should render the same profile the same way every time (no clock, no environment)', () => {
  const profile = notFoundProfile();
  for (const panel of BUILT_IN_PANEL_NAMES)
    assert.is(renderProfileText(profile, panel, plain), renderProfileText(structuredClone(profile), panel, plain));
  assert.ok(renderProfileText(profile, 'log', plain).includes(new Date(STARTED + 2000).toISOString().slice(11, 19)));
});

panels.run();
