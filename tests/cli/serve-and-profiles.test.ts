import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { profileForJson } from '../../cli/json-times.js';
import { runApp, startServe, type ServeProcess, runAppInProcess } from '../helpers/cli.js';
import { fetchProfileJson, fetchText } from '../helpers/serve.js';

const test = suite('app serve, then app profiles and app routes (real bin)');
let dir: string;
let store: string;
let serve: ServeProcess;
const tokens: Record<string, string> = {};

test.before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'appkernel-cli-'));
  store = join(dir, 'store');
  serve = await startServe(['--store', store, '--no-watch'], { cwd: dir });
  for (const path of ['/robots.txt', '/hello/world']) {
    const r = await fetchText(`${serve.base}${path}`);
    tokens[path] = r.headers['x-debug-token'];
    await fetchProfileJson(serve.base, tokens[path]);
  }
});

test.after(async () => {
  await serve.stop();
  rmSync(dir, { recursive: true, force: true });
});

test('when profiles list --json, then the requests are listed newest first with the list fields', async () => {
  const r = await runApp(['profiles', 'list', '--json', '--store', store]);
  assert.is(r.code, 0, r.stderr);
  const rows = JSON.parse(r.stdout) as Record<string, unknown>[];
  const robots = rows.find((row) => row.token === tokens['/robots.txt']);
  assert.ok(robots, 'the robots request is listed');
  assert.is(robots!.status, 404);
  assert.is(robots!.method, 'GET');
  assert.is(robots!.url, `${serve.base}/robots.txt`);
  assert.is(robots!.ip, '127.0.0.1');
  assert.type(robots!.duration, 'number');
  assert.match(String(robots!.time), /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  const times = rows.map((row) => Date.parse(row.time as string));
  assert.equal(
    times,
    [...times].sort((a, b) => b - a),
  );
});

test('when profiles list --status 4xx, then only 4xx rows', async () => {
  const r = await runAppInProcess(['profiles', 'list', '--json', '--status', '4xx', '--store', store]);
  const rows = JSON.parse(r.stdout) as { status: number }[];
  assert.ok(rows.length >= 1);
  assert.ok(rows.every((row) => row.status >= 400 && row.status < 500));
});

test('when profiles show <token> --panel exception, then both messages and [2/2] before [1/2]', async () => {
  const r = await runAppInProcess([
    'profiles',
    'show',
    tokens['/robots.txt'],
    '--panel',
    'exception',
    '--store',
    store,
  ]);
  assert.is(r.code, 0, r.stderr);
  assert.ok(r.stdout.includes(`No route found for "GET ${serve.base}/robots.txt"`));
  assert.ok(r.stdout.includes('No routes found for "/robots.txt/"'));
  assert.ok(r.stdout.indexOf('[2/2]') !== -1 && r.stdout.indexOf('[2/2]') < r.stdout.indexOf('[1/2]'));
  assert.not.match(r.stdout, /\x1b\[/);
});

test('when profiles show --json, then the stored profile round-trips, its times as ISO 8601', async () => {
  const r = await runAppInProcess(['profiles', 'show', tokens['/hello/world'], '--json', '--store', store]);
  assert.equal(JSON.parse(r.stdout), profileForJson(await fetchProfileJson(serve.base, tokens['/hello/world'])));
});

test('when profiles show an unknown token, then a clear message and exit 1', async () => {
  const r = await runAppInProcess(['profiles', 'show', 'abcdef', '--store', store]);
  assert.is(r.code, 1);
  assert.match(r.stderr, /Token "abcdef" not found/);
  assert.not.match(r.stderr, /\n\s+at /);
});

test('when routes --json, then the demo routes and the profiler routes in matching order', async () => {
  const r = await runApp(['routes', '--json'], { cwd: dir });
  assert.is(r.code, 0, r.stderr);
  const names = (JSON.parse(r.stdout) as { name: string }[]).map((route) => route.name);
  assert.ok(names.includes('_profiler') && names.includes('hello') && names.includes('contact'));
  assert.ok(names.indexOf('_profiler') < names.indexOf('hello'));
});

test('when routes match /hello/world, then exit 0 naming the route; /nope exits 1', async () => {
  const hit = await runAppInProcess(['routes', 'match', '/hello/world'], { cwd: dir });
  assert.is(hit.code, 0, hit.stderr);
  assert.match(hit.stdout, /hello/);
  const miss = await runAppInProcess(['routes', 'match', '/nope'], { cwd: dir });
  assert.is(miss.code, 1);
});

test('when an unknown option is given, then a usage error with exit 2', async () => {
  const r = await runApp(['profiles', 'list', '--bogus']);
  assert.is(r.code, 2);
  assert.match(r.stderr, /unknown option/);
});

test('when --help and --version, then exit 0', async () => {
  assert.is((await runApp(['--help'])).code, 0);
  const v = await runApp(['--version']);
  assert.is(v.code, 0);
  assert.match(v.stdout, /^\d+\.\d+\.\d+/);
});

test.run();
