import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { PACKAGE_ENTRY, runApp } from '../helpers/cli.js';

// Required: "`app routes [--json]`: the route table (name, methods, path, controller), the profiler's routes
// included." routes-match.test.ts checks --json; here the text table the bin prints, for the demo app and
// for the app file of the working directory.

const test = suite('app routes prints the route table as text (real bin)');
let dir: string;
test.before(() => {
  dir = mkdtempSync(join(tmpdir(), 'appkernel-routes-text-'));
});
test.after(() => rmSync(dir, { recursive: true, force: true }));

/** the table's rows as [name, method, path, controller] */
function rows(stdout: string): string[][] {
  const lines = stdout.trimEnd().split('\n');
  assert.match(lines[0], /^Name\s+Method\s+Path\s+Controller$/);
  assert.match(lines[1], /^-+(\s+-+){3}$/);
  return lines.slice(2).map((line) => line.trim().split(/\s+/));
}

test("when the working directory has no app file, then the profiler routes first, then the demo app's, one row each with method, path and controller", async () => {
  const r = await runApp(['routes'], { cwd: dir });
  assert.is(r.code, 0, r.stderr);
  assert.is(r.stderr, '');
  const table = rows(r.stdout);
  assert.equal(
    table.map((row) => row[0]),
    [
      '_profiler_home',
      '_profiler_search_results',
      '_profiler_live',
      '_profiler_live_script',
      '_profiler_instance_proof',
      '_profiler_explain',
      '_profiler_json',
      '_profiler',
      'home',
      'hello',
      'contact',
      'boom',
    ],
  );
  assert.equal(
    table.find((row) => row[0] === '_profiler'),
    ['_profiler', 'GET', '/_profiler/{token<.+>}', 'ProfilerController::panelAction'],
  );
  assert.equal(
    table.find((row) => row[0] === 'contact'),
    ['contact', 'POST', '/contact', 'contact'],
  );
  assert.equal(
    table.find((row) => row[0] === 'boom'),
    ['boom', 'ANY', '/boom', 'boom'],
  );
  assert.not.match(r.stdout, /\x1b\[/);
});

test("when the working directory has an app file, then its routes follow the profiler's", async () => {
  const appDir = mkdtempSync(join(dir, 'app-'));
  writeFileSync(
    join(appDir, 'app.config.ts'),
    `import { createApp } from ${JSON.stringify(PACKAGE_ENTRY)};
export const app = createApp().get('orders', '/orders/{id}', () => 'order').post('submit', '/orders', () => 'ok')
  .get('page', '/page/{n<\\\\d+>}', () => 'p', { defaults: { n: '1' } });
`,
  );
  const r = await runApp(['routes'], { cwd: appDir });
  assert.is(r.code, 0, r.stderr);
  const table = rows(r.stdout);
  assert.equal(
    table.map((row) => row[0]),
    [
      '_profiler_home',
      '_profiler_search_results',
      '_profiler_live',
      '_profiler_live_script',
      '_profiler_instance_proof',
      '_profiler_explain',
      '_profiler_json',
      '_profiler',
      'orders',
      'submit',
      'page',
    ],
  );
  assert.equal(table[8].slice(0, 3), ['orders', 'GET', '/orders/{id}']);
  assert.equal(table[9].slice(0, 3), ['submit', 'POST', '/orders']);
  assert.equal(
    table[10].slice(0, 3),
    ['page', 'GET', '/page/{n<\\d+>?1}'],
    'requirements and defaults are shown in the path',
  );
});

test.run();
