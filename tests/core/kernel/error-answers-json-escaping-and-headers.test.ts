import { load } from 'cheerio';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { fetchRawPath, fetchText, serveForTest, type TestServer } from '../../helpers/serve.js';
import { foreignScripts } from '../../helpers/toolbar-assets.js';

const PAYLOAD = '<script>alert(1)</script>';

const debug = suite('debug error answers: the problem document, escaping of the query, debug headers (demo app)');
let t: TestServer;
debug.before(async () => {
  t = await serveForTest();
});
debug.after(async () => {
  await t.stop();
});

debug(
  'when a JSON client meets a 404, then an RFC 9457 problem document with type, title, status, detail, and the chain with TypeScript traces',
  async () => {
    const r = await fetchText(`${t.base}/robots.txt`, { headers: { accept: 'application/json' } });
    assert.is(r.status, 404);
    assert.is(r.headers['content-type'], 'application/problem+json');
    const problem = JSON.parse(r.body);
    assert.is(problem.type, 'about:blank');
    assert.is(problem.title, 'Not Found');
    assert.is(problem.status, 404);
    assert.is(problem.detail, `No route found for "GET ${t.base}/robots.txt"`);
    assert.equal(
      problem.exceptions.map((e: { class: string; status: number }) => [e.class, e.status]),
      [
        ['NotFoundHttpError', 404],
        ['ResourceNotFoundError', 500],
      ],
    );
    const frame = problem.exceptions[0].trace[0];
    assert.is(frame.file, 'core/kernel/router-listener.ts');
    assert.type(frame.line, 'number');
    assert.ok(
      problem.exceptions.every((e: { trace: { file: string | null }[] }) =>
        e.trace.every((f) => !String(f.file).endsWith('.js')),
      ),
      'no compiled JavaScript file',
    );
  },
);

debug(
  'when a JSON client meets the same 404 twice, then both bodies are the compact JSON of the document, fields in their order',
  async () => {
    type Problem = {
      type: string;
      title: string;
      status: number;
      detail: string;
      instance: string;
      routing: unknown;
      exceptions: {
        class: string;
        message: string;
        status: number;
        trace: { function: string; file: string | null; line: number | null }[];
      }[];
    };
    const bodies: string[] = [];
    for (let i = 0; i < 2; i++)
      bodies.push((await fetchText(`${t.base}/robot.txt?x="1"`, { headers: { accept: 'application/json' } })).body);
    assert.is(bodies[1], bodies[0]);
    const p = JSON.parse(bodies[0]) as Problem;
    assert.ok(p.routing !== undefined, 'the routing miss is there');
    assert.is(
      bodies[0],
      JSON.stringify({
        type: p.type,
        title: p.title,
        status: p.status,
        detail: p.detail,
        instance: p.instance,
        exceptions: p.exceptions.map((e) => ({
          class: e.class,
          message: e.message,
          status: e.status,
          trace: e.trace.map((f) => ({ function: f.function, file: f.file, line: f.line })),
        })),
        routing: p.routing,
      }),
    );
  },
);

debug('when a JSON client meets a 405, then the problem document and the Allow header', async () => {
  const r = await fetchText(`${t.base}/contact`, { headers: { accept: 'application/json' } });
  assert.is(r.status, 405);
  assert.is(r.headers.allow, 'POST');
  assert.is(JSON.parse(r.body).title, 'Method Not Allowed');
});

debug('when a browser asks HTML first, then the HTML page, not JSON', async () => {
  const r = await fetchText(`${t.base}/robots.txt`, {
    headers: { accept: 'text/html,application/xhtml+xml,application/json;q=0.9,*/*;q=0.8' },
  });
  assert.match(r.headers['content-type'], /^text\/html/);
});

debug(
  'when a <script> payload is in the raw query of a 404, then the page shows it as text and injects nothing',
  async () => {
    const r = await fetchRawPath(t.base, `/nowhere?q=${PAYLOAD}&${PAYLOAD}=v`, {
      referer: `http://e.test/?q=${PAYLOAD}`,
    });
    assert.is(r.status, 404);
    const $ = load(r.body);
    assert.is(foreignScripts($), 0, "no script element but the toolbar's own");
    assert.ok(
      $.root().text().includes(`/nowhere?q=${PAYLOAD}&${PAYLOAD}=v`),
      'the URL with its query is shown as text',
    );
    assert.not.ok(r.body.includes(PAYLOAD), 'the payload is never in the markup unescaped');
  },
);

debug(
  'when a 405 page is served in debug mode, then Cache-Control, X-Robots-Tag, the debug token headers and Allow',
  async () => {
    const r = await fetchText(`${t.base}/contact`);
    assert.is(r.status, 405);
    assert.is(r.headers['cache-control'], 'no-cache, private');
    assert.is(r.headers['x-robots-tag'], 'noindex');
    assert.is(r.headers.allow, 'POST');
    assert.is(r.headers['x-debug-token-link'], `${t.base}/_profiler/${r.headers['x-debug-token']}`);
  },
);

debug('when HEAD meets a 405 or a 500, then the status and headers with an empty body', async () => {
  const notAllowed = await fetchText(`${t.base}/contact`, { method: 'HEAD' });
  assert.is(notAllowed.status, 405);
  assert.is(notAllowed.headers.allow, 'POST');
  assert.is(notAllowed.body, '');
  const failed = await fetchText(`${t.base}/boom`, { method: 'HEAD' });
  assert.is(failed.status, 500);
  assert.match(failed.headers['content-type'], /^text\/html/);
  assert.is(failed.body, '');
});

debug.run();

const prod = suite('non-debug error answers: Oops page, Allow kept, no debug headers');
let p: TestServer;
prod.before(async () => {
  p = await serveForTest({ debug: false });
});
prod.after(async () => {
  await p.stop();
});

prod(
  'when GET /contact without debug, then 405 with Allow: POST, the Oops page, nothing internal and no debug headers',
  async () => {
    const r = await fetchText(`${p.base}/contact`, { headers: { referer: 'http://example.test/secret-page' } });
    assert.is(r.status, 405);
    assert.is(r.headers.allow, 'POST');
    const text = load(r.body).root().text();
    assert.ok(text.includes('Oops! An Error Occurred'));
    assert.ok(text.includes('The server returned a "405 Method Not Allowed".'));
    for (const secret of ['/contact', 'secret-page', 'MethodNotAllowed', 'router-listener'])
      assert.not.ok(r.body.includes(secret), secret);
    for (const header of ['x-debug-token', 'x-debug-token-link', 'x-robots-tag'])
      assert.is(r.headers[header], undefined, header);
  },
);

prod('when a <script> payload is in the path without debug, then it is not reflected at all', async () => {
  const r = await fetchRawPath(p.base, `/x${PAYLOAD}`);
  assert.is(r.status, 404);
  assert.not.ok(r.body.includes('alert(1)'));
});

prod('when HEAD /robots.txt without debug, then 404 with an empty body', async () => {
  const r = await fetchText(`${p.base}/robots.txt`, { method: 'HEAD' });
  assert.is(r.status, 404);
  assert.is(r.body, '');
});

prod(
  'when JSON clients meet a 404, a 405 and the 404 again without debug, then each gets the problem document of its own status, byte for byte the same each time',
  async () => {
    const json = { headers: { accept: 'application/json', referer: 'http://example.test/secret-page' } };
    const first = await fetchText(`${p.base}/robots.txt`, json);
    const other = await fetchText(`${p.base}/contact`, json);
    const again = await fetchText(`${p.base}/nope?token=abc`, json);
    assert.is(first.status, 404);
    assert.is(first.headers['content-type'], 'application/problem+json');
    assert.is(
      first.body,
      '{"type":"about:blank","title":"Not Found","status":404,"detail":"The server returned a \\"404 Not Found\\"."}',
    );
    assert.is(other.status, 405);
    assert.is(other.headers.allow, 'POST');
    assert.is(
      other.body,
      '{"type":"about:blank","title":"Method Not Allowed","status":405,"detail":"The server returned a \\"405 Method Not Allowed\\"."}',
    );
    assert.is(again.body, first.body);
    assert.is(again.headers['content-length'], String(Buffer.byteLength(first.body)));
  },
);

prod.run();
