import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { formatRequestLine } from '../../cli/request-line.js';
import { startDevServer, type DevServer } from '../../server/dev-server.js';
import type { Profile } from '../../core/profiler/profile.js';
import { PACKAGE_ENTRY } from '../helpers/cli.js';
import { fetchProfileJson, fetchText } from '../helpers/serve.js';
import { waitFor } from './fault-server.js';

/** Controllers answering headers node:http refuses to write. */
const APP = `import { Readable } from 'node:stream';
import { createApp, Response } from ${JSON.stringify(PACKAGE_ENTRY)};

export const app = createApp()
  .get('ok', '/ok', () => 'ok')
  .get('non_latin1', '/non-latin1', () => new Response('hello', 200, { 'X-Name': 'Zoë ✓' }))
  .get('crlf', '/crlf', () => new Response('hello', 200, { 'X-Note': 'a\\r\\nSet-Cookie: planted=1' }))
  .get('bad_name', '/bad-name', () => new Response('hello', 200, { 'X Bad': '1' }))
  .get('stream', '/stream', () => {
    const response = Response.stream(Readable.from(['a', 'b']), 'text/plain');
    response.headers['X-Name'] = 'Zoë ✓';
    return response;
  });
`;

interface Served {
  server: DevServer;
  lines: string[];
  stop(): Promise<void>;
}

async function serve(debug: boolean): Promise<Served> {
  const dir = mkdtempSync(join(tmpdir(), 'appkernel-refused-header-'));
  writeFileSync(join(dir, 'app.config.ts'), APP);
  const lines: string[] = [];
  const server = await startDevServer({
    port: 0,
    host: '127.0.0.1',
    appFile: join(dir, 'app.config.ts'),
    root: dir,
    storeDir: join(dir, 'store'),
    debug,
    watch: false,
    logLevel: 'WARNING',
    print: (line) => lines.push(line),
    formatRequest: (request, response, ms) => formatRequestLine(request, response, ms, false),
  });
  return {
    server,
    lines,
    async stop() {
      await server.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

const CASES = [
  { path: '/non-latin1', header: 'X-Name', why: /U\+2713, a character outside Latin-1/ },
  { path: '/crlf', header: 'X-Note', why: /control character U\+000D/ },
  { path: '/bad-name', header: 'X Bad', why: /its name is not a valid HTTP token/ },
  { path: '/stream', header: 'X-Name', why: /U\+2713/ },
];

const debug = suite('a controller answering a header node:http refuses to write (debug)');
let d: Served;
debug.before(async () => {
  d = await serve(true);
});
debug.after(async () => {
  await d.stop();
});

for (const { path, header, why } of CASES) {
  debug(
    `when GET ${path}, then a 500 naming ${JSON.stringify(header)}, a request line, and a profile with status 500 and a CRITICAL record saying why`,
    async () => {
      const r = await fetchText(`${d.server.url}${path}`);
      assert.is(r.status, 500);
      assert.ok(
        r.body.startsWith(
          `Internal Server Error: the response could not be sent: the header ${JSON.stringify(header)} cannot be sent: `,
        ),
        r.body,
      );
      assert.match(r.body, why);
      assert.is(r.headers['content-type'], 'text/plain; charset=UTF-8');
      assert.is(r.headers['set-cookie'], undefined, 'nothing of the refused header reaches the client');
      const token = r.headers['x-debug-token'];
      assert.ok(token, 'the 500 keeps X-Debug-Token');
      const profile = (await fetchProfileJson(d.server.url, token)) as Profile;
      assert.is(profile.status, 500);
      const record = profile.collectors.log.records.find(
        (rec) => rec.level === 'CRITICAL' && rec.channel === 'request',
      );
      assert.ok(record, JSON.stringify(profile.collectors.log.records.map((rec) => rec.message)));
      assert.ok(record.message.includes(`the header ${JSON.stringify(header)} cannot be sent`), record.message);
      assert.match(record.message, why);
      await waitFor(`the request line of ${path}`, () =>
        d.lines.some((line) => line.startsWith(`GET ${path} 500 `) && line.endsWith(` ${token}`)),
      );
      assert.ok(
        d.lines.some((line) => line.includes(`the header ${JSON.stringify(header)} cannot be sent`)),
        'the terminal shows the reason',
      );
      assert.is((await fetchText(`${d.server.url}/ok`)).status, 200, 'the server keeps serving');
    },
  );
}

debug('when HEAD /non-latin1, then a 500 with no body', async () => {
  const r = await fetchText(`${d.server.url}/non-latin1`, { method: 'HEAD' });
  assert.is(r.status, 500);
  assert.is(r.body, '');
});

debug.run();

const production = suite('a controller answering a header node:http refuses to write (--no-debug)');
let p: Served;
production.before(async () => {
  p = await serve(false);
});
production.after(async () => {
  await p.stop();
});

production(
  'when GET /non-latin1 without debug, then a 500 with the production text, and the terminal says which header',
  async () => {
    const r = await fetchText(`${p.server.url}/non-latin1`);
    assert.is(r.status, 500);
    assert.is(r.body, 'Oops! An Error Occurred\nThe server returned a "500 Internal Server Error".\n');
    assert.is(r.headers['x-debug-token'], undefined);
    await waitFor('the request line', () => p.lines.some((line) => line.startsWith('GET /non-latin1 500 ')));
    assert.ok(
      p.lines.some((line) => line.includes('the header "X-Name" cannot be sent')),
      p.lines.join('\n'),
    );
  },
);

production.run();
