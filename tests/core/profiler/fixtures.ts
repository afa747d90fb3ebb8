import type { EventsData, Frame, LogRecord, Profile, RouteExplanation } from '../../../core/profiler/profile.js';

export interface FixtureOptions {
  token: string;
  time?: number;
  ip?: string;
  method?: string;
  url?: string;
  status?: number;
  /** seeds the timings, so two fixtures never compress as one */
  seed?: number;
}

const BASE = 'http://127.0.0.1:8000';

/** Durations as the kernel records them (Request.since): up to 2 ms, in whole nanoseconds, a different one each call. */
function timings(seed: number): () => number {
  let state = (seed * 2654435761) >>> 0 || 1;
  return () => {
    state ^= state << 13;
    state >>>= 0;
    state ^= state >>> 17;
    state ^= state << 5;
    state >>>= 0;
    return Math.round((state / 0xffffffff) * 2e6 + 1) / 1e6;
  };
}

function eventLog(time: number, events: [string, string[]][]): LogRecord[] {
  return events.flatMap(([event, listeners]) =>
    listeners.map(
      (listener): LogRecord => ({
        time,
        level: 'DEBUG',
        channel: 'event',
        message: `Notified event "${event}" to listener "${listener}".`,
        context: { event, listener },
      }),
    ),
  );
}

function eventsData(events: [string, string[]][], ms: () => number): EventsData {
  return {
    events: events.map(([name, listeners]) => ({
      name,
      listeners: listeners.map((listener) => ({ listener, duration: ms(), stoppedPropagation: false })),
    })),
  };
}

const REQUEST_HEADERS = {
  host: '127.0.0.1:8000',
  connection: 'keep-alive',
  'sec-ch-ua': '"Chromium";v="124", "Google Chrome";v="124", "Not-A.Brand";v="99"',
  'sec-ch-ua-mobile': '?0',
  'sec-ch-ua-platform': '"Linux"',
  'upgrade-insecure-requests': '1',
  'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36',
  accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,image/apng,*/*;q=0.8',
  'sec-fetch-site': 'none',
  'sec-fetch-mode': 'navigate',
  'sec-fetch-user': '?1',
  'sec-fetch-dest': 'document',
  'accept-encoding': 'gzip, deflate, br, zstd',
  'accept-language': 'en-GB,en-US;q=0.9,en;q=0.8',
  cookie: '[REDACTED]',
};

const ROUTES: [string, string, string[]][] = [
  ['_profiler_home', '/_profiler/', ['GET']],
  ['_profiler_search_results', '/_profiler/search', ['GET']],
  ['_profiler_json', '/_profiler/{token}.json', ['GET']],
  ['_profiler', '/_profiler/{token}', ['GET']],
  ['home', '/', ['GET']],
  ['hello', '/hello/{name}', ['GET']],
  ['contact', '/contact', ['POST']],
  ['orders_list', '/orders', ['GET']],
  ['orders_show', '/orders/{id}', ['GET']],
  ['orders_edit', '/orders/{id}/edit', ['GET', 'POST']],
  ['boom', '/boom', []],
];

function explain(path: string): RouteExplanation[] {
  return ROUTES.map(([name, routePath, methods]) => ({
    name,
    path: routePath,
    methods,
    verdict: 'path' as const,
    detail: `The path "${path}" does not match the route path "${routePath}".`,
  }));
}

const APP_SOURCE = [
  "import { createApp, Response } from 'appkernel';",
  "import { loadOrders, findOrder } from './orders/repository.js';",
  '',
  "export const app = createApp({ name: 'shop' })",
  "  .get('orders_list', '/orders', async ({ log }) => {",
  '    const orders = await loadOrders();',
  "    log.info('Listing {count} orders.', { count: orders.length });",
  '    return Response.html(renderOrders(orders));',
  '  })',
  "  .get('orders_show', '/orders/{id}', async ({ params }) => {",
  '    const order = await findOrder(params.id);',
  '    if (!order) throw new NotFoundHttpError(`Order ${params.id} does not exist.`);',
  '    return Response.html(renderOrder(order));',
  '  });',
];

function appFrame(fn: string, file: string, line: number): Frame {
  const start = Math.max(1, line - 5);
  return {
    function: fn,
    file,
    line,
    column: 11,
    kind: 'app',
    excerpt: { start, lines: APP_SOURCE.slice(0, 11).map((l, i) => `${l}${i === 5 ? ` // line ${line}` : ''}`) },
  };
}

function frames(outer: boolean): Frame[] {
  const vendor = (fn: string, file: string, line: number, column: number): Frame => ({
    function: fn,
    file,
    line,
    column,
    kind: 'vendor',
  });
  const internal = (fn: string, file: string, line: number, column: number): Frame => ({
    function: fn,
    file,
    line,
    column,
    kind: 'internal',
  });
  return [
    ...(outer
      ? [
          vendor('RouterListener.match', 'node_modules/appkernel/core/kernel/router-listener.ts', 41, 15),
          vendor('RouterListener.onKernelRequest', 'node_modules/appkernel/core/kernel/router-listener.ts', 19, 12),
        ]
      : [
          vendor('CompiledMatcher.match', 'node_modules/appkernel/core/routing/compiled-matcher.ts', 88, 13),
          vendor('RouterListener.match', 'node_modules/appkernel/core/kernel/router-listener.ts', 30, 35),
        ]),
    appFrame('loadOrders', 'src/orders/repository.ts', outer ? 42 : 17),
    appFrame('OrderService.list', 'src/orders/order-service.ts', outer ? 28 : 61),
    appFrame('orders_list', 'src/app.ts', 6),
    vendor('EventDispatcher.dispatch', 'node_modules/appkernel/core/kernel/event-dispatcher.ts', 44, 33),
    vendor('Kernel.handleRaw', 'node_modules/appkernel/core/kernel/kernel.ts', 55, 27),
    vendor('Kernel.handle', 'node_modules/appkernel/core/kernel/kernel.ts', 36, 20),
    vendor('handleNodeRequest', 'node_modules/appkernel/core/http/node-adapter.ts', 92, 30),
    internal('process.processTicksAndRejections', 'node:internal/process/task_queues', 95, 5),
    internal('Server.emit', 'node:events', 519, 28),
    internal('parserOnIncoming', 'node:_http_server', 1143, 12),
    internal('HTTPParser.parserOnHeadersComplete', 'node:_http_common', 119, 17),
    vendor('IncomingMessage.<anonymous>', 'node_modules/appkernel/core/http/node-adapter.ts', 61, 9),
    internal('IncomingMessage.emit', 'node:events', 519, 28),
  ];
}

/** A 404 as an app of some size records it: about 40 log records, a 2-exception chain of 15 frames each, app excerpts, the router's explain(). */
export function profile404(options: FixtureOptions): Profile {
  const ms = timings(options.seed ?? options.time ?? 1);
  const time = options.time ?? 1_760_000_000_000;
  const url = options.url ?? `${BASE}/robots.txt`;
  const path = new URL(url).pathname;
  const events: [string, string[]][] = [
    ['kernel.request', ['RouterListener::onKernelRequest']],
    ['kernel.exception', ['ErrorListener::onKernelException']],
    ['kernel.response', ['DebugHeadersListener::onKernelResponse', 'ProfilerListener::onKernelResponse']],
    ['kernel.terminate', ['ProfilerListener::onKernelTerminate']],
  ];
  const log: LogRecord[] = [];
  for (let i = 0; i < 7; i++) {
    log.push(
      ...eventLog(time + i, [
        [
          'kernel.request',
          ['SessionListener::onKernelRequest', 'LocaleListener::onKernelRequest', 'RouterListener::onKernelRequest'],
        ],
        ['kernel.exception', ['ErrorListener::onKernelException']],
      ]),
    );
    log.push({
      time: time + i,
      level: 'DEBUG',
      channel: 'doctrine',
      message: `SELECT o.id, o.status, o.total FROM orders o WHERE o.customer_id = ? LIMIT 20 OFFSET ${i * 20}`,
      context: { params: [4211], types: ['integer'] },
    });
  }
  log.push({
    time,
    level: 'DEBUG',
    channel: 'cache',
    message: 'Cache miss for key "routing.compiled".',
    context: { key: 'routing.compiled' },
  });
  log.push({
    time: time + 2,
    level: 'ERROR',
    channel: 'request',
    message: `Uncaught exception NotFoundHttpError: "No route found for "GET ${url}"" at node_modules/appkernel/core/kernel/router-listener.ts line 41`,
    context: { exception: { class: 'NotFoundHttpError', message: `No route found for "GET ${url}"`, status: 404 } },
  });
  while (log.length < 40)
    log.push({
      time: time + 3,
      level: 'INFO',
      channel: 'app',
      message: `Rendered fragment "sidebar.${log.length}" in {ms} ms.`,
      context: { ms: Math.round(ms() * 100) / 100 },
    });
  const duration = ms() * 3;
  return {
    version: 1,
    token: options.token,
    status: options.status ?? 404,
    ip: options.ip ?? '127.0.0.1',
    method: options.method ?? 'GET',
    url,
    time,
    duration,
    collectors: {
      request: {
        method: options.method ?? 'GET',
        url,
        path,
        route: null,
        routeParams: {},
        controller: null,
        query: {},
        headers: REQUEST_HEADERS,
        cookies: { PHPSESSID: '[REDACTED]', theme: '[REDACTED]' },
        body: null,
        response: {
          status: options.status ?? 404,
          statusText: 'Not Found',
          headers: {
            'content-type': 'text/html; charset=UTF-8',
            'cache-control': 'no-cache, private',
            'x-robots-tag': 'noindex',
            'x-debug-token': options.token,
            'x-debug-token-link': `${BASE}/_profiler/${options.token}`,
          },
          size: 48213,
          contentType: 'text/html; charset=UTF-8',
          title: `No route found for "GET ${url}" (404 Not Found)`,
        },
        redacted: ['header cookie', 'cookie PHPSESSID', 'cookie theme'],
      },
      exception: {
        chain: [
          {
            class: 'NotFoundHttpError',
            message: `No route found for "GET ${url}"`,
            status: 404,
            headers: {},
            frames: frames(true),
          },
          {
            class: 'ResourceNotFoundError',
            message: `No routes found for "${path}/"`,
            status: 500,
            headers: {},
            frames: frames(false),
          },
        ],
      },
      log: { records: log, errors: 1, warnings: 0 },
      events: eventsData(events, ms),
      time: {
        duration,
        phases: [
          { name: 'routing', start: ms(), duration: ms() },
          { name: 'exception', start: ms(), duration: ms() },
          { name: 'response', start: ms(), duration: ms() },
        ],
      },
      router: { route: null, params: {}, redirect: null, explain: explain(path) },
      security: { decision: 'none', rule: null, message: null },
    },
  };
}

/** A 200 of the `hello` route: a dozen log records, no exception. */
export function profile200(options: FixtureOptions): Profile {
  const ms = timings(options.seed ?? options.time ?? 2);
  const time = options.time ?? 1_760_000_000_000;
  const url = options.url ?? `${BASE}/hello/world`;
  const name = new URL(url).pathname.split('/').pop() ?? 'world';
  const events: [string, string[]][] = [
    ['kernel.request', ['RouterListener::onKernelRequest', 'FirewallListener::onKernelRequest']],
    ['kernel.controller', []],
    ['kernel.controller_arguments', []],
    ['kernel.view', ['ViewListener::onKernelView']],
    ['kernel.response', ['DebugHeadersListener::onKernelResponse', 'ProfilerListener::onKernelResponse']],
    ['kernel.terminate', ['ProfilerListener::onKernelTerminate']],
  ];
  const log: LogRecord[] = [
    {
      time,
      level: 'INFO',
      channel: 'request',
      message: 'Matched route "hello".',
      context: {
        route: 'hello',
        route_parameters: { _route: 'hello', _controller: 'hello', name },
        request_uri: url,
        method: 'GET',
      },
    },
    ...eventLog(time, events.slice(0, 1)),
    { time: time + 1, level: 'INFO', channel: 'app', message: `Saying hello to ${name}.`, context: { name } },
    ...eventLog(time + 1, events.slice(3)),
  ];
  const duration = ms();
  return {
    version: 1,
    token: options.token,
    status: options.status ?? 200,
    ip: options.ip ?? '127.0.0.1',
    method: options.method ?? 'GET',
    url,
    time,
    duration,
    collectors: {
      request: {
        method: options.method ?? 'GET',
        url,
        path: new URL(url).pathname,
        route: 'hello',
        routeParams: { name },
        controller: 'hello',
        query: {},
        headers: REQUEST_HEADERS,
        cookies: { PHPSESSID: '[REDACTED]' },
        body: null,
        response: {
          status: options.status ?? 200,
          statusText: 'OK',
          headers: {
            'content-type': 'text/html; charset=UTF-8',
            'cache-control': 'no-cache, private',
            'x-debug-token': options.token,
            'x-debug-token-link': `${BASE}/_profiler/${options.token}`,
          },
          size: 2210,
          contentType: 'text/html; charset=UTF-8',
          title: 'Hello',
        },
        redacted: ['header cookie', 'cookie PHPSESSID'],
      },
      exception: null,
      log: { records: log, errors: 0, warnings: 0 },
      events: eventsData(events, ms),
      time: {
        duration,
        phases: [
          { name: 'routing', start: ms(), duration: ms() },
          { name: 'firewall', start: ms(), duration: ms() },
          { name: 'controller', start: ms(), duration: ms() },
          { name: 'view', start: ms(), duration: ms() },
          { name: 'response', start: ms(), duration: ms() },
        ],
      },
      router: { route: 'hello', params: { name }, redirect: null, explain: null },
      security: { decision: 'allowed', rule: null, message: null },
    },
  };
}

/** The n-th of a run of distinct tokens: deterministic, valid, never repeated below 16^6. */
export function nthToken(n: number): string {
  return (((n * 2_654_435_761) % 0x1000000) >>> 0).toString(16).padStart(6, '0');
}
