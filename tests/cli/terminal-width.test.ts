import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { visibleWidth } from '../../render/text/fit.js';
import { type CliResult, runApp, runAppInProcess, runCliInProcess } from '../helpers/cli.js';
import { fetchProfileJson, fetchText, serveForTest } from '../helpers/serve.js';

// `profiles list`, `show --panel log`, `diff` and `routes` fit the terminal: COLUMNS when the output
// is not a terminal (as here, piped), 100 without it, no limit with --wide. The real bin reads COLUMNS
// (routes, and the default of 100); the profiles commands run in this process, given the width it reads.
const test = suite('CLI tables fitted to COLUMNS (80, 120, default 100, --wide), wide characters aligned');
let dir: string;
let store: string;
let notFound: string;
let hello: string;
const LONG_PATH = `/hello/${'%E4%BD%A0%E5%A5%BD%F0%9F%98%80'.repeat(3)}?${'filter=active&'.repeat(8)}end=1`;

test.before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'appkernel-width-'));
  store = join(dir, 'store');
  const serve = await serveForTest({ store, root: dir });
  try {
    notFound = (await fetchText(`${serve.base}/robots.txt`)).headers['x-debug-token'];
    hello = (await fetchText(`${serve.base}${LONG_PATH}`)).headers['x-debug-token'];
    await fetchProfileJson(serve.base, notFound);
    await fetchProfileJson(serve.base, hello);
  } finally {
    await serve.stop();
  }
});

test.after(() => rmSync(dir, { recursive: true, force: true }));

const widest = (text: string) => Math.max(...text.split('\n').map(visibleWidth));
const profileCommands = () => [
  ['profiles', 'list', '--store', store],
  ['profiles', 'show', hello, '--panel', 'log', '--store', store],
  ['profiles', 'show', notFound, '--panel', 'exception', '--store', store],
  ['profiles', 'diff', notFound, hello, '--store', store],
  ['profiles', 'show', hello, '--panel', 'time', '--store', store],
];

for (const columns of [80, 100, 120]) {
  test(`when COLUMNS=${columns}, then no line of list, show (log, exception, time), diff or routes is wider`, async () => {
    const results: [string[], CliResult][] = [
      [
        ['routes'],
        await (columns === 80 ? runApp : runAppInProcess)(['routes'], { env: { COLUMNS: String(columns) }, cwd: dir }),
      ],
    ];
    for (const args of profileCommands()) results.push([args, await runCliInProcess(args, { columns })]);
    for (const [args, r] of results) {
      assert.ok(r.code === 0 || (args[1] === 'diff' && r.code === 1), `${args.join(' ')}: ${r.stderr}`);
      assert.ok(widest(r.stdout) <= columns, `${args.join(' ')} at ${columns}:\n${r.stdout}`);
    }
  });
}

test('when COLUMNS=80, then the list cuts URLs with an ellipsis and the log wraps messages in their column', async () => {
  const list = await runCliInProcess(['profiles', 'list', '--store', store], { columns: 80 });
  assert.match(list.stdout, /^200 .* \/\S*… /m, list.stdout);
  const log = (
    await runCliInProcess(['profiles', 'show', hello, '--panel', 'log', '--store', store], { columns: 80 })
  ).stdout.split('\n');
  const header = log.findIndex((l) => /^Time +Level +Channel +Message$/.test(l));
  const at = log[header]!.indexOf('Message');
  const next = log.slice(header + 2).find((l) => l.slice(0, at).trim() === '' && l.trim() !== '');
  assert.ok(next, 'a message continues on a line of its own, under Message');
});

test('when the log holds wide characters and emoji, then the column after them still lines up', async () => {
  const r = await runCliInProcess(['profiles', 'show', hello, '--panel', 'request', '--store', store], {
    columns: 200,
  });
  const param = r.stdout.split('\n').find((l) => l.startsWith('Param name'));
  assert.ok(param?.includes('你好😀你好😀你好😀'), r.stdout);
  const list = (await runCliInProcess(['profiles', 'list', '--wide', '--store', store], { columns: 100 })).stdout.split(
    '\n',
  );
  const header = list.find((l) => l.startsWith('Status'))!;
  const rows = list.filter((l) => /^\d{3} /.test(l));
  for (const row of rows)
    assert.is(
      visibleWidth(row.slice(0, row.indexOf('2026') === -1 ? row.search(/\d{4}-\d\d-\d\d/) : row.indexOf('2026'))),
      header.indexOf('Time'),
    );
});

test('when COLUMNS is unset and the output is piped, then 100 columns; --wide prints every cell whole', async () => {
  const fitted = await runApp(['profiles', 'diff', notFound, hello, '--store', store], { env: { COLUMNS: '' } });
  assert.ok(widest(fitted.stdout) <= 100, fitted.stdout);
  const wide = await runApp(['profiles', 'list', '--wide', '--store', store], { env: { COLUMNS: '80' } });
  assert.ok(widest(wide.stdout) > 100, wide.stdout);
  assert.ok(wide.stdout.includes(LONG_PATH), wide.stdout);
});

test.run();
