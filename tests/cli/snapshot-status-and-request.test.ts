import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { PACKAGE_ENTRY, runApp, runAppInProcess } from '../helpers/cli.js';

const PLAIN = { CI: '', UPDATE_SNAPSHOTS: '' };
const APP = `import { createApp } from ${JSON.stringify(PACKAGE_ENTRY)};
export const app = createApp()
  .get('home', '/', () => '<html><body><h1>Home</h1></body></html>')
  .get('items', '/items', () => ({ items: [] }))
  .post('add', '/items', async ({ request }) => {
    const item = await request.json<{ name: string }>();
    return { added: item.name, accept: request.header('accept') ?? null, type: request.header('content-type') ?? null };
  })
  .post('form', '/form', async ({ request }) => ({ form: await request.form() }));
`;

const test = suite('app snapshot: statuses it records, and the request it sends');
let dir: string;

test.before.each(() => {
  dir = mkdtempSync(join(tmpdir(), 'appkernel-snapshot-request-'));
  writeFileSync(join(dir, 'app.config.ts'), APP);
});
test.after.each(() => {
  rmSync(dir, { recursive: true, force: true });
});

test('when a path answers 404, then it is not saved, the status is named, and the run exits 1', async () => {
  const r = await runApp(['snapshot', '/', '/nope', '--dir', 'snaps'], { cwd: dir, env: PLAIN });
  assert.is(r.code, 1, r.stderr);
  assert.match(r.stderr, /^written +\/ /m);
  assert.match(r.stderr, /^refused +\/nope +\(answered 404 Not Found: not saved\)$/m);
  assert.match(r.stderr, /1 of 2 pages answered 404 .*--allow-status 404\.$/m);
  assert.equal(readdirSync(join(dir, 'snaps')), ['index.snap.txt']);
});

test('when --allow-status names the status or its class, then the page is recorded and the run exits 0', async () => {
  for (const allow of ['404', '4xx', '410,404']) {
    const r = await runAppInProcess(['snapshot', '/nope', '--dir', `snaps-${allow}`, '--allow-status', allow], {
      cwd: dir,
      env: PLAIN,
    });
    assert.is(r.code, 0, `${allow}: ${r.stderr}`);
    assert.ok(readFileSync(join(dir, `snaps-${allow}`, 'nope.snap.txt'), 'utf8').startsWith('status 404\n'));
  }
  const other = await runAppInProcess(['snapshot', '/nope', '--dir', 'snaps', '--allow-status', '5xx'], {
    cwd: dir,
    env: PLAIN,
  });
  assert.is(other.code, 1, 'a 404 is not in 5xx');
});

test('when --allow-status is not a status, then a usage error (exit 2) and nothing is requested', async () => {
  const r = await runAppInProcess(['snapshot', '/', '--dir', 'snaps', '--allow-status', 'four'], {
    cwd: dir,
    env: PLAIN,
  });
  assert.is(r.code, 2);
  assert.match(r.stderr, /^app: Invalid --allow-status "four": expected a status \(404\) or a class \(4xx\)\.$/m);
  assert.not.ok(existsSync(join(dir, 'snaps')));
});

test('when -X POST, --data and -H are given, then the app gets that method, JSON body and header, saved under POST@', async () => {
  const r = await runAppInProcess(
    [
      'snapshot',
      '/items',
      '-X',
      'POST',
      '--data',
      '{"name":"pen"}',
      '-H',
      'Accept: application/json',
      '--dir',
      'snaps',
    ],
    { cwd: dir, env: PLAIN },
  );
  assert.is(r.code, 0, r.stderr);
  const saved = readFileSync(join(dir, 'snaps', 'POST@items.snap.txt'), 'utf8');
  assert.ok(saved.startsWith('status 200\n'), saved);
  assert.ok(
    saved.includes('"added":"pen"') &&
      saved.includes('"accept":"application/json"') &&
      saved.includes('"type":"application/json"'),
    saved,
  );
  const get = await runAppInProcess(['snapshot', '/items', '--dir', 'snaps'], { cwd: dir, env: PLAIN });
  assert.is(get.code, 0, get.stderr);
  assert.equal(
    readdirSync(join(dir, 'snaps')).sort(),
    ['POST@items.snap.txt', 'items.snap.txt'],
    'GET and POST keep their own files',
  );
});

test('when --data is not JSON and no method is given, then it is a POST of a urlencoded form', async () => {
  const r = await runAppInProcess(
    ['snapshot', '/form', '--header', 'X-Trace: 1', '-d', 'a=1&b=two', '--dir', 'snaps'],
    {
      cwd: dir,
      env: PLAIN,
    },
  );
  assert.is(r.code, 0, r.stderr);
  assert.match(readFileSync(join(dir, 'snaps', 'POST@form.snap.txt'), 'utf8'), /"form":\{"a":"1","b":"two"\}/);
});

test('when a header or the method is malformed, or a GET is given a body, then a usage error (exit 2)', async () => {
  for (const [args, message] of [
    [['-H', 'no colon'], /^app: Invalid header "no colon": expected "Name: value"\.$/m],
    [['-X', 'PO ST'], /^app: Invalid --method "PO ST"/m],
    [['-X', 'GET', '-d', 'a=1'], /^app: --data sends a body, which a GET request does not carry/m],
  ] as const) {
    const r = await runAppInProcess(['snapshot', '/', '--dir', 'snaps', ...args], { cwd: dir, env: PLAIN });
    assert.is(r.code, 2, `${args.join(' ')}: ${r.stderr}`);
    assert.match(r.stderr, message);
  }
});

test.run();
