import type { Profile } from '../../core/profiler/profile.js';
import { serverErrorProfile, T0 } from '../render/fixtures.js';

/** A failed request's profile with every optional field of every panel present, app panel included: the base the all-panels test drops fields from. */
export function fullProfile(): Profile {
  const profile = serverErrorProfile();
  const c = profile.collectors;
  c.request.server = { address: '127.0.0.1', port: 8000 };
  Object.assign(c.request, {
    route: 'boom',
    routeParams: { id: '7' },
    controller: 'boom',
    query: { q: 'x' },
    cookies: { session: 'REDACTED' },
  });
  c.request.body = { size: 9, contentType: 'application/json', text: '{"a":"b"}', truncated: false };
  Object.assign(c.request.response, {
    title: 'Boom',
    structure: { kind: 'html', nodes: 12, hash: '0a1b2c3d' },
    body: { size: 5, contentType: 'text/plain', text: 'hello', truncated: false },
  });
  c.log.records.push({ time: T0 + 1, level: 'WARNING', channel: 'app', message: 'Slow.', context: { ms: 9 } });
  c.log.warnings = 1;
  c.events = {
    events: [
      {
        name: 'kernel.request',
        listeners: [
          { listener: 'RouterListener.onKernelRequest', duration: 0.05, stoppedPropagation: false, start: 0.1 },
        ],
      },
    ],
  };
  c.time = {
    duration: 3.42,
    phases: [
      { name: 'routing', start: 0.05, duration: 0.1 },
      { name: 'controller', start: 0.2, duration: 2.8 },
    ],
    spans: [
      { name: 'lookup', start: 0.3, duration: 1.2 },
      { name: 'never stopped', start: 0.4, duration: 2 },
    ],
    memory: { rss: 50_000_000, heapUsed: 20_000_000, heapTotal: 30_000_000, external: 1_000_000 },
  };
  c.router = {
    route: 'boom',
    params: { id: '7' },
    redirect: 'http://127.0.0.1:8000/boom/',
    explain: [
      { name: 'home', path: '/', methods: ['GET'], verdict: 'path', detail: 'The path "/boom" does not match "/".' },
    ],
    definition: {
      path: '/boom',
      methods: ['GET'],
      requirements: { id: '\\d+' },
      defaults: { id: '1' },
      controller: 'boom',
    },
  };
  c.security = { decision: 'denied', rule: '^/boom', message: 'No.' };
  c.http_client = {
    totalTime: 4,
    errors: 1,
    calls: [
      {
        client: 'undici',
        method: 'GET',
        url: 'http://127.0.0.1:9/stock?item=a',
        start: 0.5,
        duration: 4,
        status: 200,
        statusText: 'OK',
        requestHeaders: { accept: '*/*' },
        responseHeaders: { 'content-type': 'text/plain' },
        requestSize: 0,
        responseSize: 5,
        error: 'socket hang up',
        timedOut: false,
        headersAfter: 1,
        bodyUnread: true,
        body: { size: 5, contentType: 'text/plain', text: 'stock', truncated: false },
        profile: 'abc123',
        redacted: ['header authorization'],
      },
    ],
  };
  c.db = {
    queries: [
      {
        driver: 'pg',
        sql: 'SELECT name FROM users WHERE id = $1',
        params: [1],
        runnable: 'SELECT name FROM users WHERE id = 1',
        start: 1,
        duration: 0.5,
        rows: 1,
        error: 'relation "users" does not exist',
        database: { host: '127.0.0.1', port: 5432, name: 'app', user: 'app' },
        frame: { function: 'show', file: 'app.ts', line: 12 },
        frameAssumed: false,
        slow: true,
        group: 0,
        redacted: ['$2'],
      },
    ],
    groups: [{ shape: 'SELECT name FROM users WHERE id = ?', count: 1, totalTime: 0.5 }],
    repeated: [
      {
        shape: 'SELECT name FROM users WHERE id = ?',
        frame: { function: 'show', file: 'app.ts', line: 12 },
        count: 5,
        totalTime: 2.5,
      },
    ],
    totalTime: 0.5,
    errors: 1,
    slow: 1,
    slowMs: 0.1,
  };
  c.dump = { dumps: [{ file: 'app.ts', line: 3, time: T0 + 2, value: { type: 'string', value: 'abc', length: 3 } }] };
  c.config = {
    node: 'v20.0.0',
    appkernel: '1.0.0',
    app: { name: 'demo', version: '0.1.0' },
    appFile: 'app.config.ts',
    options: { port: '8000' },
    store: 'var/profiler',
    env: { NODE_ENV: 'development' },
    redacted: [],
  };
  c.custom = { cache: { title: 'Cache', columns: ['Entry', 'Result'], rows: [['user:1', 'hit'], ['user:2']] } };
  return profile;
}
