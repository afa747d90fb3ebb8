import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { visibleWidth } from '../../render/text/fit.js';
import { runApp, runAppInProcess } from '../helpers/cli.js';
import { fetchProfileJson, fetchText, serveForTest } from '../helpers/serve.js';

const test = suite(
  "profiles show --panel log and exception: the event channel's DEBUG records hidden behind a count, --all shows them, contexts wrap between JSON values (COLUMNS 80 and 100)",
);
let dir: string;
let store: string;
const tokens: Record<string, string> = {};
const eventRecords: Record<string, number> = {};
const contexts: Record<string, Record<string, unknown>> = {};

test.before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'appkernel-quiet-log-'));
  store = join(dir, 'store');
  const serve = await serveForTest({ store: store, root: dir });
  try {
    for (const path of ['/hello/world', '/boom']) {
      tokens[path] = (await fetchText(`${serve.base}${path}`)).headers['x-debug-token'];
      const profile = await fetchProfileJson(serve.base, tokens[path]);
      const records = profile.collectors.log.records as {
        level: string;
        channel: string;
        message: string;
        context: Record<string, unknown>;
      }[];
      eventRecords[path] = records.filter((r) => r.channel === 'event' && r.level === 'DEBUG').length;
      contexts[path] = records.find((r) => r.message.startsWith('Matched route'))!.context;
    }
  } finally {
    await serve.stop();
  }
});

test.after(() => rmSync(dir, { recursive: true, force: true }));

interface Row {
  channel: string;
  message: string[];
}

/** The log table's rows: each record's channel and the lines of its Message cell. */
function logRows(stdout: string): Row[] {
  const lines = stdout.split('\n');
  const header = lines.findIndex((l) => /^Time +Level +Channel +Message$/.test(l));
  assert.ok(header !== -1, stdout);
  const channelAt = lines[header]!.indexOf('Channel');
  const messageAt = lines[header]!.indexOf('Message');
  const rows: Row[] = [];
  for (const line of lines.slice(header + 2)) {
    if (line.trim() === '' || (!line.startsWith(' ') && !/^\d\d:\d\d:\d\d /.test(line))) break;
    if (line.slice(0, messageAt).trim() === '') rows[rows.length - 1]!.message.push(line.slice(messageAt));
    else rows.push({ channel: line.slice(channelAt, messageAt).trim(), message: [line.slice(messageAt)] });
  }
  return rows;
}

const show = (path: string, panel: string, columns: number, ...more: string[]) =>
  runAppInProcess(['profiles', 'show', tokens[path]!, '--panel', panel, '--store', store, ...more], {
    env: { COLUMNS: String(columns) },
  });

for (const columns of [80, 100]) {
  for (const [path, panel] of [
    ['/hello/world', 'log'],
    ['/boom', 'exception'],
  ] as const) {
    test(`at COLUMNS=${columns}, show --panel ${panel} lists no event record and says how many it hides`, async () => {
      const r = await show(path, panel, columns);
      assert.is(r.code, 0, r.stderr);
      assert.ok(eventRecords[path]! > 0);
      const rows = logRows(r.stdout);
      assert.ok(rows.length > 0, r.stdout);
      assert.equal(
        rows.filter((row) => row.channel === 'event'),
        [],
        r.stdout,
      );
      assert.ok(r.stdout.includes(`\n${eventRecords[path]} event records hidden (--all to show)\n`), r.stdout);
      assert.ok(Math.max(...r.stdout.split('\n').map(visibleWidth)) <= columns, r.stdout);
    });

    test(`at COLUMNS=${columns}, show --panel ${panel} --all lists every event record and hides none`, async () => {
      const r = await show(path, panel, columns, '--all');
      assert.is(r.code, 0, r.stderr);
      assert.is(logRows(r.stdout).filter((row) => row.channel === 'event').length, eventRecords[path]);
      assert.not.ok(r.stdout.includes('hidden (--all to show)'), r.stdout);
    });
  }

  test(`at COLUMNS=${columns}, a context too long for the Message column goes on its own indented lines, broken only between JSON values`, async () => {
    const r = await show('/hello/world', 'log', columns);
    const matched = logRows(r.stdout).find((row) => row.message[0]!.startsWith('Matched route "hello".'));
    assert.ok(matched, r.stdout);
    assert.is(matched.message[0]!.trimEnd(), 'Matched route "hello".', 'the message alone on its first line');
    const context = matched.message.slice(1);
    assert.ok(context.length > 1, 'the context wraps at this width');
    assert.ok(
      context.every((line) => line.startsWith('  {') || line.startsWith('  "')),
      context.join('\n'),
    );
    // A break inside a key, a string or a number would put a space into it when the lines are joined with one.
    assert.equal(JSON.parse(context.map((line) => line.trim()).join(' ')), contexts['/hello/world']);
  });
}

test('when --wide, then each record and its compact context stay on one line', async () => {
  const r = await runApp(['profiles', 'show', tokens['/hello/world']!, '--panel', 'log', '--wide', '--store', store], {
    env: { COLUMNS: '80' },
  });
  assert.ok(r.stdout.includes(`Matched route "hello". ${JSON.stringify(contexts['/hello/world'])}\n`), r.stdout);
});

test.run();
