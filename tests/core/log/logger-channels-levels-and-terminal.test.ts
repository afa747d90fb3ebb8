import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startDevServer, type DevServer } from '../../../server/dev-server.js';
import { LogBuffer } from '../../../core/log/log-buffer.js';
import { interpolate, LOG_LEVELS, Logger } from '../../../core/log/logger.js';
import { terminalSink } from '../../../core/log/terminal-sink.js';
import type { LogRecord } from '../../../core/profiler/profile.js';
import { fetchText } from '../../helpers/serve.js';

const test = suite('Logger, LogBuffer and the terminal sink');

test('when each level is used, then the record holds time, level, channel, message and context; the levels go DEBUG to EMERGENCY', () => {
  assert.equal([...LOG_LEVELS], ['DEBUG', 'INFO', 'NOTICE', 'WARNING', 'ERROR', 'CRITICAL', 'ALERT', 'EMERGENCY']);
  const records: LogRecord[] = [];
  const logger = new Logger('app', (r) => records.push(r));
  const before = Date.now();
  logger.debug('d', { a: 1 });
  logger.info('i');
  logger.notice('n');
  logger.warning('w');
  logger.error('e');
  logger.critical('c');
  logger.alert('a');
  logger.emergency('em');
  assert.equal(
    records.map((r) => r.level),
    [...LOG_LEVELS],
  );
  assert.ok(records.every((r) => r.channel === 'app' && r.time >= before && r.time <= Date.now()));
  assert.equal(records[0].context, { a: 1 });
  assert.equal(records[1].context, {});
});

test('when a message has {placeholders}, then scalar context values fill them and the rest stays as written', () => {
  const records: LogRecord[] = [];
  new Logger('app', (r) => records.push(r)).info('User {user} bought {count} {item}: {missing} {obj} {nil}', {
    user: 'ann',
    count: 3,
    item: 'widgets',
    obj: { a: 1 },
    nil: null,
  });
  assert.is(records[0].message, 'User ann bought 3 widgets: {missing} {obj} {nil}');
  assert.equal(records[0].context, { user: 'ann', count: 3, item: 'widgets', obj: { a: 1 }, nil: null });
  assert.is(interpolate('at {when}', { when: new Date(0) }), 'at 1970-01-01T00:00:00.000Z');
  assert.is(interpolate('{a.b} {ok}', { 'a.b': 'dotted', ok: true }), 'dotted true');
});

test('when loggers share a buffer under other channels, then the one buffer keeps every record in order and counts errors and warnings', () => {
  const forwarded: LogRecord[] = [];
  const buffer = new LogBuffer((r) => forwarded.push(r));
  const app = new Logger('app', buffer.sink);
  app.info('one');
  app.withChannel('request').error('two');
  app.withChannel('security').warning('three');
  app.critical('four');
  assert.equal(
    buffer.records.map((r) => [r.channel, r.message]),
    [
      ['app', 'one'],
      ['request', 'two'],
      ['security', 'three'],
      ['app', 'four'],
    ],
  );
  assert.is(buffer.errors, 2);
  assert.is(buffer.warnings, 1);
  assert.equal(forwarded, buffer.records);
});

test('when the terminal sink has a threshold, then only records at or above it are printed, one line each with time, level and channel', () => {
  const lines: string[] = [];
  const sink = terminalSink('WARNING', (line) => lines.push(line));
  const logger = new Logger('app', sink);
  logger.debug('quiet');
  logger.info('quiet too');
  logger.warning('loud {n}', { n: 1 });
  logger.emergency('louder');
  assert.is(lines.length, 2);
  assert.match(lines[0], /^\d\d:\d\d:\d\d WARNING +\[app\] loud 1$/);
  assert.match(lines[1], /^\d\d:\d\d:\d\d EMERGENCY \[app\] louder$/);
});

test.run();

const serve = suite("the dev server prints a request's records at its configured level");

/** The lines the dev server printed while it answered `requests` (method, path, expected status), then closed. */
async function printed(
  logLevel: 'DEBUG' | 'INFO' | 'WARNING',
  debug: boolean,
  requests: [string, string, number][],
): Promise<string[]> {
  const lines: string[] = [];
  const storeDir = mkdtempSync(join(tmpdir(), 'appkernel-log-level-'));
  let server: DevServer | null = null;
  try {
    server = await startDevServer({
      port: 0,
      host: '127.0.0.1',
      appFile: null,
      root: process.cwd(),
      storeDir,
      debug,
      watch: false,
      logLevel,
      print: (line) => lines.push(line),
      formatRequest: (request, response) => `${request.method} ${request.path} ${response.status}`,
    });
    for (const [method, path, status] of requests)
      assert.is((await fetchText(`${server.url}${path}`, { method })).status, status);
  } finally {
    await server?.close();
    rmSync(storeDir, { recursive: true, force: true });
  }
  return lines;
}

const printedFor = (logLevel: 'DEBUG' | 'INFO' | 'WARNING') =>
  printed(logLevel, true, [
    ['GET', '/hello/world', 200],
    ['GET', '/boom', 500],
  ]);

serve(
  'when the level is WARNING, then the CRITICAL of /boom is printed but not the INFO or DEBUG records',
  async () => {
    const lines = await printedFor('WARNING');
    assert.ok(
      lines.some((l) =>
        /CRITICAL \[request\] Uncaught exception Error: "The stock of "widgets" could not be counted\."/.test(l),
      ),
      lines.join('\n'),
    );
    assert.not.ok(
      lines.some((l) => l.includes('Matched route') || l.includes('Notified event')),
      lines.join('\n'),
    );
  },
);

serve("when the level is INFO, then Matched route and the app's own INFO are printed, DEBUG still not", async () => {
  const lines = await printedFor('INFO');
  assert.ok(
    lines.some((l) => /INFO +\[request\] Matched route "hello"\./.test(l)),
    lines.join('\n'),
  );
  assert.ok(
    lines.some((l) => /INFO +\[app\] Saying hello to world\./.test(l)),
    lines.join('\n'),
  );
  assert.not.ok(
    lines.some((l) => l.includes('Notified event')),
    lines.join('\n'),
  );
});

serve('when the level is DEBUG, then the event notifications are printed too', async () => {
  const lines = await printedFor('DEBUG');
  assert.ok(
    lines.some((l) =>
      /DEBUG +\[event\] Notified event "kernel\.request" to listener "RouterListener::onKernelRequest"\./.test(l),
    ),
    lines.join('\n'),
  );
});

const production = suite('outside debug, a 404 or 405 is told by its request line alone');

const printedOutsideDebug = (logLevel: 'DEBUG' | 'INFO' | 'WARNING', debug = false) =>
  printed(logLevel, debug, [
    ['GET', '/nope', 404],
    ['DELETE', '/hello/world', 405],
    ['GET', '/boom', 500],
  ]);

production(
  'when --no-debug serves a 404 and a 405 at level WARNING, then only their request lines are printed, and a 500 still prints its CRITICAL',
  async () => {
    const lines = await printedOutsideDebug('WARNING');
    assert.ok(lines.includes('GET /nope 404') && lines.includes('DELETE /hello/world 405'), lines.join('\n'));
    assert.not.ok(
      lines.some((l) => l.includes('NotFoundHttpError') || l.includes('MethodNotAllowedHttpError')),
      lines.join('\n'),
    );
    assert.ok(
      lines.some((l) => /CRITICAL \[request\] Uncaught exception Error: /.test(l)),
      lines.join('\n'),
    );
  },
);

production(
  'when --no-debug prints at level INFO, then the ERROR records of the 404 and the 405 are printed as recorded',
  async () => {
    const lines = await printedOutsideDebug('INFO');
    assert.ok(
      lines.some((l) =>
        /ERROR +\[request\] Uncaught exception NotFoundHttpError: "No route found for "GET http:[^"]+\/nope""/.test(l),
      ),
      lines.join('\n'),
    );
    assert.ok(
      lines.some((l) => /ERROR +\[request\] Uncaught exception MethodNotAllowedHttpError: /.test(l)),
      lines.join('\n'),
    );
  },
);

production(
  'when the profiler is on, then an expected 404 or 405 adds no ERROR line below level DEBUG (its page and profile explain it); at DEBUG it does',
  async () => {
    const lines = await printedOutsideDebug('INFO', true);
    assert.ok(lines.includes('GET /nope 404') || lines.some((l) => l.startsWith('GET /nope 404')), lines.join('\n'));
    assert.not.ok(
      lines.some((l) => l.includes('NotFoundHttpError') || l.includes('MethodNotAllowedHttpError')),
      lines.join('\n'),
    );
    const all = await printedOutsideDebug('DEBUG', true);
    assert.ok(
      all.some((l) => /ERROR +\[request\] Uncaught exception NotFoundHttpError: /.test(l)),
      all.join('\n'),
    );
  },
);

serve.run();
production.run();
