import type { Profile } from '../../../core/profiler/profile.js';

/** 2024-05-01 12:00:00 UTC: fixtures never read the clock. */
export const STARTED = Date.UTC(2024, 4, 1, 12, 0, 0);

/** A plain 200 for GET /hello/world with no exception; tests override what they exercise. */
export function sampleProfile(overrides: Partial<Profile> = {}): Profile {
  return {
    version: 1,
    token: 'a1b2c3',
    status: 200,
    ip: '127.0.0.1',
    method: 'GET',
    url: 'http://127.0.0.1:8000/hello/world',
    time: STARTED,
    duration: 12.34,
    collectors: {
      request: {
        method: 'GET',
        url: 'http://127.0.0.1:8000/hello/world',
        path: '/hello/world',
        route: 'hello',
        routeParams: { name: 'world' },
        controller: 'helloController',
        query: {},
        headers: { host: '127.0.0.1:8000', authorization: 'REDACTED' },
        cookies: {},
        body: null,
        response: {
          status: 200,
          statusText: 'OK',
          headers: { 'content-type': 'text/html; charset=utf-8' },
          size: 42,
          contentType: 'text/html; charset=utf-8',
          title: 'Hello',
        },
        redacted: ['header authorization'],
      },
      exception: null,
      log: {
        records: [
          {
            time: STARTED + 1000,
            level: 'DEBUG',
            channel: 'request',
            message: 'Matched route "hello".',
            context: { route: 'hello' },
          },
        ],
        errors: 0,
        warnings: 0,
      },
      events: {
        events: [
          {
            name: 'kernel.request',
            listeners: [{ listener: 'RouterListener::onKernelRequest', duration: 0.25, stoppedPropagation: false }],
          },
        ],
      },
      time: {
        duration: 12.34,
        phases: [
          { name: 'routing', start: 0, duration: 1 },
          { name: 'controller', start: 2, duration: 8 },
        ],
      },
      router: { route: 'hello', params: { name: 'world' }, redirect: null, explain: null },
      security: { decision: 'none', rule: null, message: null },
    },
    ...overrides,
  };
}

/** GET /robots.txt: a 404 whose NotFoundHttpError wraps the router's ResourceNotFoundError. */
export function notFoundProfile(): Profile {
  const base = sampleProfile();
  return {
    ...base,
    token: '0f9e8d',
    status: 404,
    url: 'http://127.0.0.1:8000/robots.txt',
    collectors: {
      ...base.collectors,
      request: {
        ...base.collectors.request,
        url: 'http://127.0.0.1:8000/robots.txt',
        path: '/robots.txt',
        route: null,
        routeParams: {},
        controller: null,
        response: { ...base.collectors.request.response, status: 404, statusText: 'Not Found' },
      },
      exception: {
        chain: [
          {
            class: 'NotFoundHttpError',
            message: 'No route found for "GET http://127.0.0.1:8000/robots.txt"',
            status: 404,
            headers: {},
            frames: [
              {
                function: 'RouterListener.onKernelRequest',
                file: 'core/kernel/router-listener.ts',
                line: 51,
                column: 13,
                kind: 'app',
              },
            ],
          },
          {
            class: 'ResourceNotFoundError',
            message: 'No routes found for "/robots.txt/"',
            status: 500,
            headers: {},
            frames: [
              {
                function: 'CompiledMatcher.match',
                file: 'core/routing/compiled-matcher.ts',
                line: 40,
                column: 11,
                kind: 'app',
              },
              {
                function: 'process.processTicksAndRejections',
                file: 'node:internal/process/task_queues',
                line: 95,
                column: 5,
                kind: 'internal',
              },
            ],
          },
        ],
      },
      log: {
        records: [
          {
            time: STARTED + 2000,
            level: 'ERROR',
            channel: 'request',
            message: 'Uncaught NotFoundHttpError: No route found for "GET http://127.0.0.1:8000/robots.txt"',
            context: {},
          },
        ],
        errors: 1,
        warnings: 0,
      },
      router: {
        route: null,
        params: {},
        redirect: null,
        explain: [
          { name: 'home', path: '/', methods: [], verdict: 'path', detail: 'Path "/" does not match' },
          {
            name: 'hello',
            path: '/hello/{name}',
            methods: ['GET'],
            verdict: 'path',
            detail: 'Path "/hello/{name}" does not match',
          },
        ],
      },
    },
  };
}
