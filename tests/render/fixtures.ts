import type { ExceptionRecord, Frame, LogRecord, Profile } from '../../core/profiler/profile.js';
import type { ErrorPageData } from '../../core/kernel/error-renderer.js';

/** 2024-05-14 09:41:07.123 UTC */
export const T0 = Date.UTC(2024, 4, 14, 9, 41, 7, 123);
export const PAYLOADS = ['<script>alert(1)</script>', '"><img src=x onerror=alert(1)>', 'javascript:alert(1)'] as const;

const vendor = (fn: string, file: string, line: number): Frame => ({
  function: fn,
  file: `node_modules/appkernel/dist/core/${file}`,
  line,
  column: 13,
  kind: 'vendor',
});
const internal = (fn: string, file: string, line: number): Frame => ({
  function: fn,
  file,
  line,
  column: 5,
  kind: 'internal',
});

export const ROBOTS_URL = 'http://127.0.0.1:8000/robots.txt';
export const NOT_FOUND_MESSAGE = `No route found for "GET ${ROBOTS_URL}"`;
export const ROUTING_MESSAGE = 'No routes found for "/robots.txt/"';

export function notFoundChain(): ExceptionRecord[] {
  const kernelFrames = [
    vendor('EventDispatcher.dispatch', 'kernel/event-dispatcher.ts', 48),
    vendor('Kernel.handleRaw', 'kernel/kernel.ts', 71),
    vendor('Kernel.handle', 'kernel/kernel.ts', 52),
    vendor('handleNodeRequest', 'http/node-adapter.ts', 33),
    internal('process.processTicksAndRejections', 'node:internal/process/task_queues', 95),
  ];
  return [
    {
      class: 'NotFoundHttpError',
      message: NOT_FOUND_MESSAGE,
      status: 404,
      headers: {},
      frames: [vendor('RouterListener.onKernelRequest', 'kernel/router-listener.ts', 64), ...kernelFrames],
    },
    {
      class: 'ResourceNotFoundError',
      message: ROUTING_MESSAGE,
      status: 500,
      headers: {},
      frames: [
        vendor('CompiledMatcher.match', 'routing/compiled-matcher.ts', 88),
        vendor('RouterListener.onKernelRequest', 'kernel/router-listener.ts', 41),
        ...kernelFrames,
      ],
    },
  ];
}

const notified = (time: number, event: string, listener: string): LogRecord => ({
  time,
  level: 'DEBUG',
  channel: 'event',
  message: `Notified event "${event}" to listener "${listener}".`,
  context: {},
});

export function matchedRoute(time: number, route: string, params: Record<string, string>, uri: string): LogRecord {
  return {
    time,
    level: 'INFO',
    channel: 'request',
    message: `Matched route "${route}".`,
    context: {
      route,
      route_parameters: { _route: route, _controller: route, ...params },
      request_uri: uri,
      method: 'GET',
    },
  };
}

/** The failing 404's own log: the router logs nothing for a 404, so no `Matched route` here. */
export function notFoundLog(): LogRecord[] {
  return [
    notified(T0, 'kernel.request', 'DebugHeadersListener.onKernelRequest'),
    notified(T0 + 1, 'kernel.request', 'RouterListener.onKernelRequest'),
    {
      time: T0 + 2,
      level: 'ERROR',
      channel: 'request',
      message: `Uncaught exception NotFoundHttpError: "${NOT_FOUND_MESSAGE}" at node_modules/appkernel/dist/core/kernel/router-listener.ts line 64`,
      context: { exception: { class: 'NotFoundHttpError', message: NOT_FOUND_MESSAGE, status: 404 } },
    },
    notified(T0 + 2, 'kernel.exception', 'ErrorListener.onKernelException'),
    notified(T0 + 3, 'kernel.response', 'ProfilerListener.onKernelResponse'),
  ];
}

/** A typical 404's log padded to `count` records (events, a matched route on another request's channel). */
export function longLog(count: number): LogRecord[] {
  const records = notFoundLog();
  for (let i = records.length; i < count; i++) {
    records.push(
      i % 10 === 0
        ? matchedRoute(
            T0 + i,
            '_profiler',
            { token: 'a1b2c3' },
            'http://127.0.0.1:8000/_profiler/a1b2c3?panel=exception&type=request',
          )
        : notified(T0 + i, 'kernel.request', `Listener${i}.onKernelRequest`),
    );
  }
  return records;
}

export function notFoundErrorPage(overrides: Partial<ErrorPageData> = {}): ErrorPageData {
  return {
    status: 404,
    statusText: 'Not Found',
    method: 'GET',
    url: ROBOTS_URL,
    exception: { chain: notFoundChain() },
    log: notFoundLog(),
    token: 'a1b2c3',
    ...overrides,
  };
}

function baseProfile(
  fields: Pick<Profile, 'token' | 'status' | 'method' | 'url'>,
  path: string,
  statusText: string,
): Profile {
  return {
    version: 1,
    ...fields,
    ip: '127.0.0.1',
    time: T0,
    duration: 3.42,
    collectors: {
      request: {
        method: fields.method,
        url: fields.url,
        path,
        route: null,
        routeParams: {},
        controller: null,
        query: {},
        headers: { host: '127.0.0.1:8000', 'user-agent': 'curl/8.5.0', accept: '*/*' },
        cookies: {},
        body: null,
        response: {
          status: fields.status,
          statusText,
          headers: { 'content-type': 'text/html; charset=UTF-8', 'cache-control': 'no-cache, private' },
          size: 1234,
          contentType: 'text/html; charset=UTF-8',
          title: null,
        },
        redacted: [],
      },
      exception: null,
      log: { records: [], errors: 0, warnings: 0 },
      events: { events: [] },
      time: { duration: 3.42, phases: [] },
      router: { route: null, params: {}, redirect: null, explain: null },
      security: { decision: 'none', rule: null, message: null },
    },
  };
}

export function notFoundProfile(): Profile {
  const profile = baseProfile(
    { token: 'a1b2c3', status: 404, method: 'GET', url: ROBOTS_URL },
    '/robots.txt',
    'Not Found',
  );
  const c = profile.collectors;
  c.exception = { chain: notFoundChain() };
  c.log = { records: notFoundLog(), errors: 1, warnings: 0 };
  c.events = {
    events: [
      {
        name: 'kernel.request',
        listeners: [
          { listener: 'DebugHeadersListener.onKernelRequest', duration: 0.01, stoppedPropagation: false },
          { listener: 'RouterListener.onKernelRequest', duration: 0.12, stoppedPropagation: false },
        ],
      },
      {
        name: 'kernel.exception',
        listeners: [{ listener: 'ErrorListener.onKernelException', duration: 0.9, stoppedPropagation: true }],
      },
    ],
  };
  c.time = {
    duration: 3.42,
    phases: [
      { name: 'routing', start: 0.1, duration: 0.2 },
      { name: 'exception', start: 0.4, duration: 2.5 },
    ],
  };
  c.router.explain = [
    {
      name: 'home',
      path: '/',
      methods: ['GET'],
      verdict: 'path',
      detail: 'The path "/robots.txt/" does not match "/".',
    },
    {
      name: 'hello',
      path: '/hello/{name}',
      methods: ['GET'],
      verdict: 'path',
      detail: 'The path "/robots.txt/" does not match "/hello/{name}".',
    },
    {
      name: 'contact',
      path: '/contact',
      methods: ['POST'],
      verdict: 'path',
      detail: 'The path "/robots.txt/" does not match "/contact".',
    },
  ];
  return profile;
}

export function okProfile(): Profile {
  const url = 'http://127.0.0.1:8000/hello/world?lang=en';
  const profile = baseProfile({ token: 'c0ffee', status: 200, method: 'GET', url }, '/hello/world', 'OK');
  const c = profile.collectors;
  Object.assign(c.request, {
    route: 'hello',
    routeParams: { name: 'world' },
    controller: 'hello',
    query: { lang: 'en', tag: ['a', 'b'] },
    headers: { ...c.request.headers, authorization: 'REDACTED', cookie: 'REDACTED' },
    cookies: { session: 'REDACTED' },
    redacted: ['header authorization', 'header cookie', 'cookie session'],
  });
  c.request.response.title = 'Hello';
  c.log = {
    records: [
      matchedRoute(T0, 'hello', { name: 'world' }, url),
      notified(T0 + 1, 'kernel.request', 'RouterListener.onKernelRequest'),
      notified(T0 + 1, 'kernel.controller', 'ProfilerListener.onKernelController'),
      notified(T0 + 2, 'kernel.controller_arguments', 'ProfilerListener.onKernelControllerArguments'),
      { time: T0 + 2, level: 'INFO', channel: 'app', message: 'Saying hello to world.', context: { name: 'world' } },
      { time: T0 + 3, level: 'WARNING', channel: 'app', message: 'Slow greeting.', context: {} },
    ],
    errors: 0,
    warnings: 1,
  };
  c.events = {
    events: [
      {
        name: 'kernel.request',
        listeners: [{ listener: 'RouterListener.onKernelRequest', duration: 0.05, stoppedPropagation: false }],
      },
    ],
  };
  c.time = {
    duration: 3.42,
    phases: [
      { name: 'routing', start: 0.05, duration: 0.1 },
      { name: 'firewall', start: 0.15, duration: 0.02 },
      { name: 'controller', start: 0.2, duration: 2.8 },
      { name: 'response', start: 3.0, duration: 0.3 },
    ],
  };
  c.router = { route: 'hello', params: { name: 'world' }, redirect: null, explain: null };
  c.security = { decision: 'allowed', rule: '^/hello', message: 'Anyone may say hello.' };
  return profile;
}

/** A 500 thrown from app code two calls deep, with code excerpts. */
export function serverErrorProfile(): Profile {
  const profile = baseProfile(
    { token: 'deadbe', status: 500, method: 'GET', url: 'http://127.0.0.1:8000/boom' },
    '/boom',
    'Internal Server Error',
  );
  const excerpt = (start: number) => ({
    start,
    lines: Array.from({ length: 11 }, (_, i) => `  line ${start + i} <code> && "quoted"`),
  });
  profile.collectors.exception = {
    chain: [
      {
        class: 'Error',
        message: 'The stock of "widgets" could not be counted.',
        status: 500,
        headers: {},
        frames: [
          { function: 'checkStock', file: 'src/inventory.ts', line: 10, column: 9, kind: 'app', excerpt: excerpt(5) },
          {
            function: 'loadInventory',
            file: 'src/inventory.ts',
            line: 6,
            column: 10,
            kind: 'app',
            excerpt: excerpt(1),
          },
          vendor('Kernel.callController', 'kernel/kernel.ts', 120),
          internal('process.processTicksAndRejections', 'node:internal/process/task_queues', 95),
        ],
      },
    ],
  };
  profile.collectors.log = {
    records: [
      {
        time: T0,
        level: 'CRITICAL',
        channel: 'request',
        message: 'Uncaught exception Error: "The stock of "widgets" could not be counted." at src/inventory.ts line 10',
        context: {},
      },
    ],
    errors: 1,
    warnings: 0,
  };
  return profile;
}

/** Every reflected field holds the XSS payloads. */
export function hostileProfile(): Profile {
  const p = PAYLOADS.join(' ');
  const profile = notFoundProfile();
  const c = profile.collectors;
  profile.url = `javascript:alert(1)//${p}`;
  profile.ip = p;
  profile.method = p;
  profile.instance = p;
  Object.assign(c.request, {
    url: profile.url,
    path: `/${p}`,
    route: p,
    routeParams: { [p]: p },
    controller: p,
    query: { [p]: [p, p] },
    headers: { referer: p, [`x-${p}`]: p },
    cookies: { [p]: p },
    redacted: [p],
    body: { size: 40, contentType: p, text: p, truncated: true },
  });
  Object.assign(c.request.response, { statusText: p, headers: { 'x-evil': p }, contentType: p, title: p });
  c.exception = {
    chain: notFoundChain().map((e) => ({
      ...e,
      class: p,
      message: p,
      frames: e.frames.map((f) => ({
        ...f,
        function: p,
        file: p,
        kind: 'app' as const,
        excerpt: { start: 1, lines: [p] },
      })),
    })),
  };
  c.log.records = [{ time: T0, level: 'ERROR', channel: p, message: p, context: { [p]: p, nested: { p } } }];
  c.events.events = [{ name: p, listeners: [{ listener: p, duration: 1, stoppedPropagation: true }] }];
  c.time.phases = [{ name: p, start: 0, duration: 1 }];
  c.router = {
    route: p,
    params: { [p]: p },
    redirect: `javascript:alert(1)//${p}`,
    explain: [{ name: p, path: p, methods: [p], verdict: 'path', detail: p }],
  };
  c.security = { decision: 'denied', rule: p, message: p };
  c.http_client = {
    totalTime: 1,
    errors: 1,
    calls: [
      {
        client: 'undici',
        method: p,
        url: `javascript:alert(1)//${p}`,
        start: 0,
        duration: 1,
        status: 500,
        statusText: p,
        requestHeaders: { [p]: p },
        responseHeaders: { [p]: [p, p] },
        requestSize: 1,
        responseSize: 1,
        error: p,
        timedOut: false,
        redacted: [p],
      },
    ],
  };
  c.db = {
    queries: [
      {
        driver: 'pg',
        sql: p,
        params: [p],
        runnable: p,
        start: 0,
        duration: 1,
        rows: 1,
        error: p,
        database: { host: p, port: 1, name: p, user: p },
        frame: { function: p, file: p, line: 1 },
        frameAssumed: false,
        slow: true,
        group: 0,
        redacted: [p],
      },
    ],
    groups: [{ shape: p, count: 1, totalTime: 1 }],
    repeated: [{ shape: p, frame: { function: p, file: p, line: 1 }, count: 5, totalTime: 1 }],
    totalTime: 1,
    errors: 1,
    slow: 1,
    slowMs: 1,
  };
  c.dump = {
    dumps: [
      {
        file: p,
        line: 1,
        time: T0,
        value: {
          type: 'object',
          class: p,
          more: 0,
          entries: [
            [p, { type: 'string', value: p, length: p.length }],
            ['e', { type: 'error', class: p, message: p }],
            ['c', { type: 'circular', class: p }],
          ],
        },
      },
    ],
  };
  c.config = {
    node: p,
    appkernel: p,
    app: { name: p, version: p },
    appFile: p,
    options: { [p]: p },
    store: p,
    env: { [p]: p },
    redacted: [p],
  };
  return profile;
}
