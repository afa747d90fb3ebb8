import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PACKAGE_ENTRY } from '../../helpers/cli.js';
import { serveForTest, type TestServer } from '../../helpers/serve.js';

/**
 * An app that uses every tool of the new panels: outgoing calls (fetch and node:http) to an upstream
 * server the test runs, stopwatch spans, dump(), its own panel. The upstream answers `/hold/<id>` only
 * once `hold` requests wait (so that two calls are in flight at once), anything else at once.
 */
export const panelsApp = (upstream: string) => `import { get } from 'node:http';
import { createApp, dump, record } from ${JSON.stringify(PACKAGE_ENTRY)};

class User {
  constructor(name) { this.name = name; this.password = 'pw-' + name + '-secret'; this.self = this; }
}

export const app = createApp({ name: 'panels' })
  .panel('cache', { title: 'Cache', columns: ['Entry', 'Result'], row: (entry) => [entry.key, entry.hit ? 'hit' : 'miss'] })
  .get('fetch', '/fetch/{id}', async function fetchOne({ params }) {
    const response = await fetch(${JSON.stringify(upstream)} + '/echo/' + params.id + '?token=tok-' + params.id + '-secret&page=2', {
      headers: { authorization: 'Bearer bearer-' + params.id + '-secret', 'x-request-id': params.id },
    });
    return '<!DOCTYPE html><html><head><title>fetched</title></head><body>' + (await response.text()) + '</body></html>';
  })
  .get('hold', '/hold/{id}', async function hold({ params }) {
    const response = await fetch(${JSON.stringify(upstream)} + '/hold/' + params.id);
    return { body: await response.text() };
  })
  .get('node_http', '/node-http', function nodeHttp() {
    return new Promise((resolve, reject) => {
      get(${JSON.stringify(upstream)} + '/echo/node', (response) => {
        let body = '';
        response.on('data', (chunk) => { body += chunk; });
        response.on('end', () => resolve({ status: response.statusCode, body }));
      }).on('error', reject);
    });
  })
  .get('unread', '/unread', async function unread() {
    const response = await fetch(${JSON.stringify(upstream)} + '/unread');
    return { status: response.status };
  })
  .get('fetch_json', '/fetch-json/{what}', async function fetchJson({ params }) {
    const response = await fetch(${JSON.stringify(upstream)} + '/' + params.what);
    return { read: (await response.text()).length };
  })
  .get('callee', '/callee', async function callee({ request }) {
    const response = await fetch(request.baseUrl + '/cache');
    await response.text();
    return { token: response.headers.get('x-debug-token') };
  })
  .get('refused', '/refused', async function refused() {
    try { await fetch(${JSON.stringify(upstream)} + '/drop'); } catch (error) { return { failed: String(error.cause?.code ?? error.message) }; }
    return { failed: false };
  })
  .get('timeline', '/timeline', async function timeline({ stopwatch }) {
    stopwatch.start('load');
    await fetch(${JSON.stringify(upstream)} + '/echo/timeline').then((r) => r.text());
    stopwatch.stop('load');
    const total = await stopwatch.measure('render', async () => { await new Promise((r) => setTimeout(r, 5)); return 3; });
    stopwatch.start('left-running');
    return { total };
  })
  .get('dumps', '/dumps', function dumps({ dump: ctxDump }) {
    ctxDump(new User('ann'));
    dump(new Map([['k', [1, 2n, 'three']]]));
    return { dumped: 2 };
  })
  .get('cache', '/cache', function cache({ record: ctxRecord }) {
    ctxRecord('cache', { key: 'user:1', hit: true });
    record('cache', { key: 'user:2', hit: false });
    return { cached: 2 };
  });
`;

export interface Upstream {
  url: string;
  /** requests received, by path */
  seen: string[];
  close(): Promise<void>;
}

/** JSON answers of the upstream: a secret field among others, and a body longer than a preview (40,000-odd bytes). */
export const ACCOUNT = '{"user":"ann","password":"pw-upstream-secret","plan":"gold"}';
export const LONG = JSON.stringify({ items: Array.from({ length: 2000 }, (_, i) => ({ id: i, name: `item ${i}` })) });

/** The upstream server the app calls; `/hold/*` answers once `holdCount` such requests arrived. */
export async function startUpstream(holdCount = 2): Promise<Upstream> {
  const seen: string[] = [];
  const held: [IncomingMessage, (body: string) => void][] = [];
  const server: Server = createServer((request, response) => {
    seen.push(request.url ?? '');
    const answer = (body: string) =>
      response
        .writeHead(200, {
          'content-type': 'text/plain',
          'content-length': Buffer.byteLength(body),
          'set-cookie': 'upstream=cookie-secret-value',
        })
        .end(body);
    if (request.url === '/drop') return void request.socket.destroy();
    if (request.url === '/account')
      return void response.writeHead(200, { 'content-type': 'application/json' }).end(ACCOUNT);
    // a JSON answer longer than a preview, sent in chunks without a length
    if (request.url === '/long') return void response.writeHead(200, { 'content-type': 'application/json' }).end(LONG);
    if (request.url === '/picture')
      return void response.writeHead(200, { 'content-type': 'image/png' }).end(Buffer.alloc(64, 7));
    // the head and part of the body, the rest never: a response the app does not read to its end
    if (request.url === '/unread')
      return void response.writeHead(200, { 'content-type': 'text/plain' }).write('the first part');
    if (request.url?.startsWith('/hold/')) {
      held.push([request, answer]);
      if (held.length >= holdCount) for (const [r, send] of held.splice(0)) send(`held ${r.url}`);
      return;
    }
    answer(`echo ${request.url}`);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export interface PanelsServer extends TestServer {
  upstream: Upstream;
  dir: string;
  remove(): Promise<void>;
}

export async function servePanelsApp(): Promise<PanelsServer> {
  const upstream = await startUpstream();
  const dir = mkdtempSync(join(tmpdir(), 'appkernel-panels-'));
  writeFileSync(join(dir, 'app.config.mjs'), panelsApp(upstream.url));
  const t = await serveForTest({ appFile: join(dir, 'app.config.mjs'), root: dir });
  return {
    ...t,
    upstream,
    dir,
    async remove() {
      await t.stop();
      await upstream.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
