import { mkdtempSync, rmSync } from 'node:fs';
import { get, type IncomingMessage } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { waitFor } from '../helpers/poll.js';
import { fetchProfiled } from '../helpers/profiled-request.js';
import { fetchText, serveForTest, type TestServer } from '../helpers/serve.js';
import { openFileStorage } from '../../core/profiler/storage/file-storage.js';
import { storedEntry } from '../../core/profiler/storage/stored-entry.js';
import { nthToken, profile200 } from '../core/profiler/fixtures.js';

const test = suite('/_profiler/live: Server-Sent Events, one per profile stored, filtered like the search');
let t: TestServer;

test.before(async () => {
  t = await serveForTest();
});
test.after(async () => {
  await t?.stop();
});

interface Stream {
  response: IncomingMessage;
  text: () => string;
  close(): void;
}

function openStream(path: string, base = t.base): Promise<Stream> {
  return new Promise((resolve, reject) => {
    const request = get(`${base}${path}`, (response) => {
      let text = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (text += chunk));
      resolve({ response, text: () => text, close: () => request.destroy() });
    });
    request.on('error', reject);
  });
}

/** Waits on the store itself: polling the JSON view would store 404 profiles of its own. */
async function stored(path: string): Promise<string> {
  return (await fetchProfiled(t, path)).token;
}

test('when a 404 and a 200 are profiled while a stream filtered on 4xx is open, then it sends one profile event, for the 404', async () => {
  const stream = await openStream('/_profiler/live?status=4xx');
  assert.is(stream.response.statusCode, 200);
  assert.match(stream.response.headers['content-type'] ?? '', /^text\/event-stream/);
  assert.match(String(stream.response.headers['content-security-policy']), /default-src 'none'/);
  assert.ok(await waitFor(() => stream.text().includes('retry: 2000'), 5_000));
  const ok = await stored('/');
  const missing = await stored('/no-such-page');
  assert.ok(await waitFor(() => stream.text().includes(missing), 10_000), stream.text());
  const events = stream
    .text()
    .split('\n\n')
    .filter((block) => block.startsWith('event: profile'));
  assert.is(events.length, 1);
  const row = JSON.parse(events[0].split('\ndata: ')[1]);
  assert.is(row.token, missing);
  assert.is(row.status, 404);
  assert.not.ok(stream.text().includes(ok));
  stream.close();
});

test("when a stream is asked for a filter it cannot read, then it says so in a notice event first, and the page's own parameters raise none", async () => {
  const stream = await openStream('/_profiler/live?status=abc&limit=7&since=2026-01-01&offset=20');
  assert.is(stream.response.statusCode, 200);
  assert.ok(await waitFor(() => stream.text().includes('retry: 2000'), 5_000));
  const notices = stream
    .text()
    .split('\n\n')
    .filter((block) => block.startsWith('event: notice'))
    .map((block) => JSON.parse(block.split('\ndata: ')[1]));
  assert.equal(notices, ['status "abc" was not applied: give an exact status (404) or a class (4xx).']);
  stream.close();
  const unreadable = await openStream('/_profiler/live?until=not-a-time');
  assert.ok(await waitFor(() => unreadable.text().includes('event: notice'), 5_000), unreadable.text());
  assert.ok(unreadable.text().includes('until \\"not-a-time\\" was not applied'), unreadable.text());
  unreadable.close();
});

test('when a stream opens while the store still loads its index, then a profile stored as soon as the stream is open is sent', async () => {
  // A store of many profiles: the server loads its index in slices, and the stream's first search waits for it.
  const dir = mkdtempSync(join(tmpdir(), 'appkernel-live-loading-'));
  const writer = await openFileStorage({ dir, maxProfiles: 1_000_000 });
  const time = Date.now() - 3_600_000;
  for (let batch = 0; batch < 40; batch++) {
    writer.writeBatch(
      Array.from({ length: 1_000 }, (_, i) =>
        storedEntry(profile200({ token: nthToken(batch * 1_000 + i + 1), time: time + batch * 1_000 + i, seed: i })),
      ),
    );
    await writer.flush();
  }
  const loading = await serveForTest({ store: dir });
  try {
    const stream = await openStream('/_profiler/live?url=/just-after', loading.base);
    assert.is(stream.response.statusCode, 200);
    // Another writer of the same store (a second server) stores one the moment the stream is open.
    const token = nthToken(50_000);
    writer.writeBatch([storedEntry(profile200({ token, time: Date.now(), url: 'http://127.0.0.1:8000/just-after' }))]);
    await writer.flush();
    assert.ok(await waitFor(() => stream.text().includes(token), 5_000), stream.text());
    stream.close();
  } finally {
    await writer.close();
    await loading.stop();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('when the search page is served, then it loads the same-origin script its CSP allows, and the script is served as JavaScript', async () => {
  const page = await fetchText(`${t.base}/_profiler/search?limit=10`);
  assert.ok(page.body.includes('<script src="/_profiler/live-search.js" defer></script>'));
  assert.not.ok(/<script(?![^>]*\bsrc=)[^>]*>/.test(page.body), 'no inline script');
  assert.match(page.headers['content-security-policy'], /script-src 'self'/);
  const script = await fetchText(`${t.base}/_profiler/live-search.js`);
  assert.is(script.status, 200);
  assert.match(script.headers['content-type'], /^text\/javascript/);
  assert.ok(script.body.includes("new EventSource('/_profiler/live?'"));
  assert.not.ok(script.body.includes('innerHTML'), 'rows are built with DOM calls');
});

test('when the server closes with a live stream open, then the stream ends and close does not wait for it', async () => {
  const other = await serveForTest();
  const stream = await new Promise<IncomingMessage>((resolve, reject) =>
    get(`${other.base}/_profiler/live`, resolve).on('error', reject),
  );
  const ended = new Promise<void>((resolve) => {
    stream.on('end', resolve);
    stream.on('close', resolve);
    stream.resume();
  });
  const closed = other.stop().then(() => 'closed');
  const result = await Promise.race([closed, new Promise((resolve) => setTimeout(() => resolve('still open'), 4_000))]);
  assert.is(result, 'closed', 'close() did not wait for the grace period');
  await ended;
});

test.run();
