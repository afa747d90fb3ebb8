import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { openFileStorage } from '../../core/profiler/storage/file-storage.js';
import { profile200 } from '../core/profiler/fixtures.js';
import { runApp, type CliResult } from '../helpers/cli.js';
import { storedEntry } from '../../core/profiler/storage/stored-entry.js';

// Fast CLI start: `app --version` and `app profiles list` load only what they use.
// No timings here (bench:start measures them): the packages each command resolves or requires are
// logged by a module hook preloaded into the real bin, and the heavy ones must not be among them.

/** Packages that no command below uses: the database client, the HTML tools, the MCP SDK, the secret scanner, the app loader, the watcher, the HTTP client. */
const UNUSED = [
  'pg',
  'cheerio',
  '@modelcontextprotocol/sdk',
  'zod',
  'highlight.js',
  '@secretlint/',
  'tsx',
  'esbuild',
  'chokidar',
  'undici',
  '@fastify/send',
];
const HOOK = pathToFileURL(resolve(process.cwd(), 'dist/tests/helpers/log-loaded-modules.js')).href;
const version = (JSON.parse(readFileSync(resolve(process.cwd(), 'package.json'), 'utf8')) as { version: string })
  .version;
const TOKENS = ['a1b2c3', 'd4e5f6'];

const test = suite('app --version and app profiles list load none of the heavy packages (real bin)');
let dir: string;
let store: string;

test.before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'appkernel-cli-start-'));
  store = join(dir, 'store');
  const storage = await openFileStorage({ dir: store });
  TOKENS.forEach((token, seed) =>
    storage.writeBatch([storedEntry(profile200({ token, seed, time: Date.now() - 1000 + seed }))]),
  );
  await storage.close();
});

test.after(() => rmSync(dir, { recursive: true, force: true }));

/** Runs the bin with the hook preloaded: its result, and the packages (under node_modules) it loaded. */
async function runLogged(
  name: string,
  args: string[],
): Promise<{ result: CliResult; urls: string[]; packages: Set<string> }> {
  const log = join(dir, `${name}.log`);
  const result = await runApp(args, { env: { NODE_OPTIONS: `--import=${HOOK}`, APPKERNEL_TEST_LOADED_LOG: log } });
  const urls = readFileSync(log, 'utf8').split('\n').filter(Boolean);
  const packages = new Set(
    urls.flatMap((url) => {
      const m = /\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(url);
      return m ? [m[1]] : [];
    }),
  );
  return { result, urls, packages };
}

function assertNoneLoaded(packages: Set<string>): void {
  const loaded = [...packages].filter((name) =>
    UNUSED.some((unused) => (unused.endsWith('/') ? name.startsWith(unused) : name === unused)),
  );
  assert.equal(loaded, [], `loaded: ${[...packages].sort().join(', ')}`);
}

test('when `app --version` or `app -v` runs, then it prints the version, and no package at all is loaded', async () => {
  for (const flag of ['--version', '-v']) {
    const { result, urls, packages } = await runLogged(`version${flag}`, [flag]);
    assert.is(result.code, 0, result.stderr);
    assert.is(result.stdout, `${version}\n`);
    // The log saw the bin load: an empty log would pass the checks below for nothing.
    assert.ok(
      urls.some((url) => url.endsWith('/dist/cli/bin.js')),
      urls.join('\n'),
    );
    assert.equal([...packages], []);
  }
});

test('when `app --version` comes after a command, then commander answers it, and no heavy package is loaded', async () => {
  const { result, urls, packages } = await runLogged('version-late', ['--version', 'routes']);
  assert.is(result.code, 0, result.stderr);
  assert.is(result.stdout, `${version}\n`);
  assert.ok(
    urls.some((url) => url.endsWith('/dist/cli/main.js')),
    urls.join('\n'),
  );
  assert.ok(packages.has('commander'), [...packages].join(', '));
  assertNoneLoaded(packages);
});

test('when `app profiles list` reads a file store, then it lists its profiles, and no heavy package is loaded', async () => {
  const { result, urls, packages } = await runLogged('list', ['profiles', 'list', '--wide', '--store', store]);
  assert.is(result.code, 0, result.stderr);
  for (const token of TOKENS) assert.ok(result.stdout.includes(token), result.stdout);
  assert.ok(
    urls.some((url) => url.includes('/dist/core/profiler/storage/file-storage.js')),
    urls.join('\n'),
  );
  assertNoneLoaded(packages);
});

test('when `app profiles list --json` reads a file store, then no heavy package is loaded either', async () => {
  const { result, packages } = await runLogged('list-json', ['profiles', 'list', '--json', '--store', store]);
  assert.is(result.code, 0, result.stderr);
  assert.is((JSON.parse(result.stdout) as unknown[]).length, TOKENS.length);
  assertNoneLoaded(packages);
});

test('when `app --help` and `app serve --help` run, then no heavy package is loaded', async () => {
  for (const args of [['--help'], ['serve', '--help']]) {
    const { result, packages } = await runLogged(args.join(''), args);
    assert.is(result.code, 0, result.stderr);
    assert.match(result.stdout, /Usage: app/);
    assertNoneLoaded(packages);
  }
});

test.run();
