import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { runApp, runAppInProcess } from '../helpers/cli.js';

const test = suite('app routes and app routes match (demo app)');
let dir: string;
test.before(() => {
  dir = mkdtempSync(join(tmpdir(), 'appkernel-routes-'));
});
test.after(() => rmSync(dir, { recursive: true, force: true }));

test('when routes --json, then every route has name, methods, path and controller', async () => {
  const r = await runApp(['routes', '--json'], { cwd: dir });
  assert.is(r.code, 0, r.stderr);
  const routes = JSON.parse(r.stdout) as { name: string; methods: string[]; path: string; controller: string }[];
  const contact = routes.find((route) => route.name === 'contact');
  assert.ok(contact, 'the contact route is listed');
  const { name, methods, path, controller } = contact!;
  assert.equal(
    { name, methods, path, controller },
    { name: 'contact', methods: ['POST'], path: '/contact', controller: 'contact' },
  );
  assert.ok(routes.some((route) => route.name === '_profiler' && route.path === '/_profiler/{token}'));
  for (const route of routes)
    for (const field of ['name', 'path', 'controller'])
      assert.type(route[field as keyof typeof route], 'string', `${route.name}.${field}`);
});

test("when nothing matches /robots.txt, then exit 1 and a reason for every app route, the profiler's left out", async () => {
  const routes = JSON.parse((await runAppInProcess(['routes', '--json'], { cwd: dir })).stdout) as { name: string }[];
  const r = await runAppInProcess(['routes', 'match', '/robots.txt'], { cwd: dir });
  assert.is(r.code, 1);
  for (const { name } of routes) {
    if (name.startsWith('_profiler')) assert.not.match(r.stdout, new RegExp(`\\s${name}\\s`), name);
    else assert.match(r.stdout, new RegExp(`miss\\s+${name}\\s`), name);
  }
  assert.match(r.stdout, /No route matches\./);
});

test("when the path is under /_profiler, then the profiler's routes are explained too", async () => {
  const r = await runAppInProcess(['routes', 'match', '/_profiler/nope/x', '--method', 'POST'], { cwd: dir });
  assert.is(r.code, 1);
  assert.match(r.stdout, /miss\s+_profiler_home\s/);
});

test('when the path carries a query or a fragment, then the path alone is matched, as for a request', async () => {
  const r = await runAppInProcess(['routes', 'match', '/contact?from=home#form', '--method', 'POST'], { cwd: dir });
  assert.is(r.code, 0, r.stdout);
  assert.match(r.stdout, /Route "contact" matches\./);
});

test('when the path does not start with "/", then a usage error saying so, exit 2', async () => {
  for (const path of ['contact', 'http://127.0.0.1:8000/contact', '']) {
    const r = await runAppInProcess(['routes', 'match', path], { cwd: dir });
    assert.is(r.code, 2, path);
    assert.is(r.stderr, `app: Invalid path "${path}": paths start with "/".\n`);
    assert.is(r.stdout, '');
  }
});

test('when only the method differs, then the reason names the allowed methods; with that method, exit 0', async () => {
  const miss = await runAppInProcess(['routes', '--wide', 'match', '/contact'], { cwd: dir });
  assert.is(miss.code, 1);
  assert.match(miss.stdout, /contact .*Method "GET" does not match any of the required methods \(POST\)/);
  const hit = await runAppInProcess(['routes', 'match', '/contact', '--method', 'post'], { cwd: dir });
  assert.is(hit.code, 0, hit.stderr);
  assert.match(hit.stdout, /Route "contact" matches\./);
});

test('when routes match --json, then the explanations as JSON on stdout', async () => {
  const r = await runAppInProcess(['routes', '--json', 'match', '/hello/ann'], { cwd: dir });
  assert.is(r.code, 0);
  const explanations = JSON.parse(r.stdout) as { name: string; verdict: string }[];
  assert.equal(
    explanations.filter((e) => e.verdict === 'match').map((e) => e.name),
    ['hello'],
  );
});

test.run();
