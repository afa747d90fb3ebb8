import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createApp } from '../../../core/app/app.js';
import { recordingTools } from '../../../core/debug/recording-tools.js';
import { serialiseOnce } from '../../../core/debug/request-recording.js';
import { Request } from '../../../core/http/request.js';
import { buildKernel, combinedRoutes } from '../../../core/kernel/build-kernel.js';
import { RecordingTrace, traceNames } from '../../../core/kernel/request-trace.js';
import { buildRecordedProfiles } from '../../../core/profiler/handoff/build-batch.js';
import { ByteReader, ByteWriter } from '../../../core/profiler/handoff/byte-writer.js';
import { writeRequestRecord } from '../../../core/profiler/handoff/request-record.js';
import { RouteTables, routeTableData } from '../../../core/profiler/handoff/route-tables.js';
import { REDACTED } from '../../../core/redaction/index.js';
import { readStoredEntry } from '../../../core/profiler/storage/stored-profile-reader.js';
import { STORED_RECORD } from '../../../core/profiler/stored-record.js';
import { htmlErrorRenderer } from '../../../render/error-renderer.js';
import { renderProfileText } from '../../../panels/profile-text.js';
import { profilePanels } from '../../../panels/registry.js';
import { renderProfilePage } from '../../../web-profiler/views/profile-page.js';

const test = suite('the profiler worker stores a request as its record, and its profile is built when it is read');

/** A configuration as `app serve` records it, the same object for every request, with secrets in its environment. */
const configuration = serialiseOnce({
  node: 'v20',
  appkernel: '0.1.0',
  app: null,
  appFile: null,
  options: {},
  store: null,
  env: { API_TOKEN: 'env-token-3141', DATABASE_URL: 'postgres://me:env-pass-2718@db/app', REGION: 'eu' },
  redacted: [],
});
const page = `<!DOCTYPE html><html><head><title>Long page</title></head><body>${'<p>filler</p>'.repeat(500)}<p>only-in-the-body-7731</p></body></html>`;
const app = createApp({ name: 'records' })
  .get('home', '/', () => 'home')
  .get('page', '/page', () => page)
  .post('create', '/posts', () => ({ created: true }))
  .get('configured', '/configured', ({ trace }) => {
    trace.addEntry('config', configuration);
    return 'configured';
  })
  .get('signed', '/signed', ({ log }) => {
    log.info('Signed the upload.', { password: 'log-secret-8128' });
    return 'signed';
  })
  .get('upstream', '/upstream', () => {
    throw new Error('Upstream refused Authorization: Bearer exc-secret-0nly-in-the-exception-6060');
  })
  .get('post', '/posts/{id}', ({ params, log }) => {
    log.info('Showing post {id}.', { id: params.id });
    return { id: params.id };
  });
const kernel = buildKernel(app, {
  debug: true,
  root: process.cwd(),
  errorRenderer: htmlErrorRenderer,
  recording: recordingTools,
});
const routes = combinedRoutes(app, []);

/** the i-th request's token */
const tokenOf = (i: number): string => 'a0b1c'.concat(String(i));

/** What the worker stores for each request, as buildRecordedProfiles makes it from their hand-off records. */
async function storedEntries(
  requests: { target: string; method?: string; body?: string; headers?: Record<string, string> }[],
): Promise<Buffer[]> {
  const writer = new ByteWriter();
  const names: string[] = [];
  let known = 0;
  await null;
  for (const [i, { target, method, body, headers }] of requests.entries()) {
    const request = new Request({
      method: method ?? 'GET',
      target,
      headers: { host: '127.0.0.1:8000', ...headers },
      body: body === undefined ? undefined : Buffer.from(body),
    });
    const response = await kernel.handle(request);
    const trace = kernel.traceOf(request);
    if (!(trace instanceof RecordingTrace)) throw new Error('not traced');
    trace.token = tokenOf(i);
    trace.responded(request.elapsed());
    const at = writer.reserve32();
    writeRequestRecord(writer, request, trace, response, 0, traceNames(), known);
    writer.patch32(at, writer.length - at - 4);
    known = traceNames().length;
  }
  const tables = new RouteTables();
  tables.set(0, routeTableData(routes));
  const built = buildRecordedProfiles(new Uint8Array(writer.take()), tables, names);
  assert.equal(built.failures, []);
  const entries: Buffer[] = [];
  let at = 0;
  for (const length of built.lengths) {
    entries.push(Buffer.from(built.jsons, at, length));
    at += length;
  }
  return entries;
}

function read(entry: Uint8Array) {
  const decoded = readStoredEntry(entry);
  if (!decoded.ok) throw new Error(decoded.problem);
  return decoded.profile;
}

test('when requests carry nothing secret, then each is stored as its record, which reads back as its profile', async () => {
  const entries = await storedEntries([{ target: '/' }, { target: '/posts/7' }, { target: '/nope' }]);
  assert.equal(
    entries.map((entry) => entry[0]),
    [STORED_RECORD, STORED_RECORD, STORED_RECORD],
  );
  const [home, post, miss] = entries.map(read);
  assert.is(home.status, 200);
  assert.is(home.collectors.router.route, 'home');
  assert.is(post.collectors.log.records.find((record) => record.channel === 'app')?.message, 'Showing post 7.');
  assert.is(miss.status, 404);
  assert.ok(miss.collectors.router.explain !== null, 'the routing panel of a miss travels with its record');
  assert.ok(miss.collectors.exception !== null);
});

test('when a request carries a secret, then it is stored as its redacted record, and the secret is in no stored byte', async () => {
  const entries = await storedEntries([
    { target: '/posts/1?password=hunter2-kept' },
    { target: '/', headers: { authorization: 'Bearer tok-99-kept' } },
  ]);
  for (const entry of entries) {
    assert.is(entry[0], STORED_RECORD);
    assert.not.ok(
      entry.toString('latin1').includes('hunter2-kept') || entry.toString('latin1').includes('tok-99-kept'),
    );
  }
  const [query, header] = entries.map(read);
  assert.ok(query.url.includes(`password=${REDACTED}`), query.url);
  assert.equal(query.collectors.request.query.password, REDACTED);
  assert.ok(query.collectors.request.redacted.includes('query password'), query.collectors.request.redacted.join());
  assert.is(query.collectors.log.records.find((record) => record.channel === 'app')?.message, 'Showing post 1.');
  assert.is(header.collectors.request.headers.authorization, `Bearer ${REDACTED}`);
  assert.ok(header.collectors.request.redacted.includes('header authorization'));
  assert.is(header.collectors.router.route, 'home');
  assert.ok(header.collectors.events.events.length > 0, 'the events panel is built from the record as for any other');
});

test('when only the log or the exception holds what the policy redacts, then the request is stored as its redacted record, not as it came', async () => {
  const entries = await storedEntries([{ target: '/signed' }, { target: '/upstream' }]);
  for (const entry of entries) {
    assert.is(entry[0], STORED_RECORD);
    const bytes = entry.toString('latin1');
    assert.not.ok(bytes.includes('log-secret-8128') || bytes.includes('exc-secret-0nly'), bytes.slice(0, 200));
  }
  const [signed] = entries.map(read);
  assert.is(signed.collectors.log.records.find((record) => record.channel === 'app')?.context.password, REDACTED);
  const upstream = read(entries[1]);
  assert.match(upstream.collectors.exception?.chain[0].message ?? '', `Bearer ${REDACTED}`);
});

test('when only the configuration, sent once, holds secrets, then requests are stored as their records as they came, the configuration in them redacted', async () => {
  const entries = await storedEntries([{ target: '/configured' }, { target: '/configured' }]);
  for (const entry of entries) {
    assert.is(entry[0], STORED_RECORD);
    const bytes = entry.toString('latin1');
    assert.not.ok(bytes.includes('env-token-3141') || bytes.includes('env-pass-2718'), bytes);
    olderRecord(entry, 2); // it asserts the record carries no entry panels: it was not written again
    const config = read(entry).collectors.config;
    assert.is(config?.env.API_TOKEN, REDACTED);
    assert.is(config?.env.DATABASE_URL, `postgres://${REDACTED}@db/app`);
    assert.is(config?.env.REGION, 'eu');
    assert.equal(config?.redacted, ['env API_TOKEN', 'env DATABASE_URL']);
  }
});

test('when a request body holds a secret field, then its record keeps the body as the request panel shows it, redacted', async () => {
  const json = { 'content-type': 'application/json' };
  const [plain, secret] = await storedEntries([
    { target: '/posts', method: 'POST', body: '{"title":"Hello","tags":["a"]}', headers: json },
    { target: '/posts', method: 'POST', body: '{"title":"Hello","password":"body-secret-5150"}', headers: json },
  ]);
  assert.is(plain[0], STORED_RECORD);
  assert.is(read(plain).collectors.request.body?.text, '{"title":"Hello","tags":["a"]}');
  assert.is(secret[0], STORED_RECORD);
  assert.not.ok(secret.toString('latin1').includes('body-secret-5150'));
  const body = read(secret).collectors.request.body;
  assert.is(body?.text, `{"title":"Hello","password":"${REDACTED}"}`);
  assert.is(body?.size, Buffer.byteLength('{"title":"Hello","password":"body-secret-5150"}'));
});

test("when a page's body is long, then its record keeps what the panel shows of it (title, structure), never the body", async () => {
  const [entry] = await storedEntries([{ target: '/page' }]);
  assert.is(entry[0], STORED_RECORD);
  assert.not.ok(entry.toString('latin1').includes('only-in-the-body-7731'));
  assert.ok(entry.length < page.length / 2, `${entry.length} bytes`);
  const response = read(entry).collectors.request.response;
  assert.is(response.title, 'Long page');
  assert.is(response.size, Buffer.byteLength(page));
  assert.ok(response.structure !== null);
});

test('when a stored record is cut short or damaged anywhere, then reading it names the problem or every panel of what it reads renders, and nothing throws', async () => {
  for (const entry of await storedEntries([{ target: '/posts/3' }, { target: '/nope' }])) {
    for (let cut = 1; cut < entry.length; cut += 7) {
      const decoded = readStoredEntry(entry.subarray(0, cut));
      if (decoded.ok) continue;
      assert.type(decoded.problem, 'string');
    }
    for (let at = 3; at < entry.length; at += 5) {
      const damaged = Buffer.from(entry);
      damaged[at] ^= at % 2 === 0 ? 0xff : 0x01;
      const decoded = readStoredEntry(damaged);
      if (!decoded.ok) {
        assert.type(decoded.problem, 'string');
        continue;
      }
      for (const panel of profilePanels(decoded.profile)) {
        renderProfilePage(decoded.profile, { panel: panel.name });
        renderProfileText(decoded.profile, panel.name, { color: false });
      }
    }
  }
});

test('when a stored record is of a version this appkernel does not know, then reading it says a newer appkernel recorded it', async () => {
  const [entry] = await storedEntries([{ target: '/' }]);
  const newer = Buffer.from(entry);
  newer[1] = 9;
  const decoded = readStoredEntry(newer);
  assert.is(decoded.ok, false);
  assert.match((decoded as { problem: string }).problem, /recorded by a newer appkernel \(stored record version 9/);
});

/** `entry` (a stored record of version 4, of a request without queries) as versions 1 and 2 wrote it: the same, without its entry panels. */
function olderRecord(entry: Buffer, version: 1 | 2): Buffer {
  const r = new ByteReader(entry);
  r.uint();
  r.uint();
  r.uint();
  for (let n = r.uint(); n > 0; n--) {
    r.uint();
    r.string();
  }
  r.string();
  const panelsAt = r.offset;
  assert.is(r.string(), '', 'a record of a request that carried no secret holds no entry panels');
  const older = Buffer.concat([entry.subarray(0, panelsAt), entry.subarray(r.offset)]);
  older[1] = version;
  return older;
}

test('when a stored record is of version 1, 2 or 3 (before entry panels, before queries were written field by field, before a query referred to the one before it), then it reads as it did', async () => {
  const [entry] = await storedEntries([{ target: '/posts/3' }]);
  assert.is(entry[1], 4);
  const now = readStoredEntry(entry);
  assert.ok(now.ok);
  for (const version of [1, 2] as const) assert.equal(readStoredEntry(olderRecord(entry, version)), now);
  const version3 = Buffer.from(entry);
  version3[1] = 3;
  assert.equal(readStoredEntry(version3), now);
});

test.run();
