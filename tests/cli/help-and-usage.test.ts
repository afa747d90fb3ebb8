import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { runApp, runAppInProcess, runCliInProcess } from '../helpers/cli.js';

/** Every command, with the arguments it needs to get as far as option parsing. */
const COMMANDS: string[][] = [
  ['serve'],
  ['routes'],
  ['routes', 'match', '/x'],
  ['profiles'],
  ['profiles', 'list'],
  ['profiles', 'show', 'abcdef'],
  ['profiles', 'diff', 'abcdef', 'abcdef'],
  ['profiles', 'export', 'abcdef'],
  ['profiles', 'prune'],
  ['profiles', 'clear'],
  ['replay', 'abcdef'],
  ['snapshot', '/'],
];

const test = suite('the app CLI: help, version, usage errors, stdout and stderr');

/** A test that runs every command runs the first with the real bin and the others in this process. */
const firstByTheBin = (i: number) => (i === 0 ? runApp : runCliInProcess);

test('when any command is given --help, then exit 0 and its usage with examples on stdout', async () => {
  for (const [i, command] of [[], ...COMMANDS].entries()) {
    const r = await firstByTheBin(i)([...command, '--help']);
    const name = command.join(' ') || 'app';
    assert.is(r.code, 0, name);
    assert.match(r.stdout, /^Usage: app/m, name);
    assert.match(r.stdout, /\nExamples:\n\s+\$ app /, `${name} --help shows examples`);
    assert.is(r.stderr, '', name);
  }
});

test('when help is asked for with the help command, then exit 0 and the usage on stdout, as with --help', async () => {
  for (const [i, args] of [['help', 'serve'], ['help', 'profiles'], ['profiles', 'help', 'list'], ['help']].entries()) {
    const r = await firstByTheBin(i)(args);
    assert.is(r.code, 0, `${args.join(' ')}: ${r.stderr}`);
    assert.match(r.stdout, /^Usage: app/, args.join(' '));
    assert.is(r.stderr, '', args.join(' '));
  }
});

test('when help is asked for a command that does not exist, then it is named, exit 2, and nothing on stdout', async () => {
  for (const [args, topic] of [
    [['help', 'nope'], 'nope'],
    [['profiles', 'help', 'lst'], 'lst'],
  ] as const) {
    const r = await runApp([...args]);
    assert.is(r.code, 2, args.join(' '));
    assert.is(r.stderr, `app: unknown command '${topic}'\n(run with --help for usage)\n`);
    assert.is(r.stdout, '');
  }
});

test('when --version or -v, then the package version on stdout and exit 0', async () => {
  const { version } = JSON.parse(readFileSync('package.json', 'utf8')) as { version: string };
  for (const flag of ['--version', '-v']) {
    const r = await runApp([flag]);
    assert.is(r.code, 0);
    assert.is(r.stdout.trim(), version);
  }
});

test('when any command is given an unknown option, then a usage error on stderr, nothing on stdout, exit 2', async () => {
  for (const [i, command] of COMMANDS.entries()) {
    const r = await firstByTheBin(i)([...command, '--bogus']);
    const name = command.join(' ');
    assert.is(r.code, 2, `${name}: ${r.stderr}`);
    assert.match(
      r.stderr,
      /^app: unknown option '--bogus'\n/,
      `${name}: the CLI's own prefix, not commander's "error:"`,
    );
    assert.is(r.stdout, '', name);
  }
});

test('when the command is unknown, then a usage error, exit 2', async () => {
  const r = await runApp(['serv']);
  assert.is(r.code, 2);
  assert.match(r.stderr, /^app: unknown command 'serv'\n\(Did you mean serve\?\)\n/);
  assert.is(r.stdout, '');
});

test('when an option value is bad, then a one-line message on stderr, no stack trace, exit 2', async () => {
  for (const [i, args] of [
    ['profiles', 'list', '--status', 'teapot'],
    ['profiles', 'list', '--limit', 'ten'],
    ['profiles', 'prune', '--older-than', 'soon'],
    ['serve', '--log-level', 'LOUD'],
  ].entries()) {
    const r = await firstByTheBin(i)(args);
    assert.is(r.code, 2, `${args.join(' ')}: ${r.stderr}`);
    assert.is(r.stderr.trim().split('\n').length, 1, r.stderr);
    assert.not.match(r.stderr, /\n\s+at /);
    assert.is(r.stdout, '');
  }
});

test('when an option value is empty, a store URL of another database, a file for a folder or a folder for a file, or a reversed time range, then one line saying so, exit 2', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'appkernel-usage-'));
  const file = join(dir, 'a-file');
  writeFileSync(file, '');
  try {
    const cases: [string[], RegExp, Record<string, string>?][] = [
      [['profiles', 'list', '--status', ''], /^app: Invalid status "": expected e\.g\. 404 or 4xx\.$/],
      [
        ['profiles', 'list', '--url', ''],
        /^app: Invalid --url "": give a value, or leave the option out to match all\.$/,
      ],
      [['profiles', 'tail', '--method', ''], /^app: Invalid --method ""/],
      [['profiles', 'list', '--store', ''], /^app: Invalid --store "": give a folder, or a postgres:\/\/ URL\.$/],
      [
        ['profiles', 'list', '--store', 'mysql://db/x'],
        /^app: Unsupported store "mysql:\/\/db\/x" \(--store\): give a folder, or a postgres:\/\/ URL/,
      ],
      [
        ['profiles', 'list'],
        /^app: Unsupported store "redis:\/\/x" \(APPKERNEL_PROFILER_STORE\)/,
        { APPKERNEL_PROFILER_STORE: 'redis://x' },
      ],
      [
        ['profiles', 'list', '--since', '1h', '--until', '2h'],
        /^app: --since \(1h\) is later than --until \(2h\): no profile can be in that range\.$/,
      ],
      [['serve', '--store', file, '--port', '0'], /^app: Invalid --store ".*a-file": it is a file, not a folder\.$/],
      [['snapshot', '/', '--dir', file], /^app: Invalid --dir ".*a-file": it is a file, not a folder\.$/],
      [['routes', '--app', dir], /^app: The app file ".*" is a folder: name the app file in it \(app\.config\.ts/],
      [['replay', 'latest', '--data-file', dir], /^app: Cannot read --data-file ".*": it is a folder, not a file\.$/],
      [
        ['routes', '--app', file],
        /^app: Invalid APPKERNEL_LOAD_TIMEOUT "soon": expected a number of seconds \(e\.g\. 30\), or unset for 10\.$/,
        { APPKERNEL_LOAD_TIMEOUT: 'soon' },
      ],
    ];
    for (const [i, [args, message, env]] of cases.entries()) {
      const r = await (i === 0 ? runApp : runAppInProcess)(args, { cwd: dir, env });
      assert.is(r.code, 2, `${args.join(' ')}: ${r.stderr}`);
      assert.match(r.stderr.trim(), message, args.join(' '));
      assert.is(r.stderr.trim().split('\n').length, 1, r.stderr);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('when a command that needs a subcommand is given none, then its help on stderr and exit 2', async () => {
  for (const command of [[], ['profiles']]) {
    const r = await runApp(command);
    assert.is(r.code, 2, command.join(' '));
    assert.match(r.stderr, /Usage: app/, command.join(' '));
  }
});

test.run();
