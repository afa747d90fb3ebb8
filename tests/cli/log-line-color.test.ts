import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { paintLogLevel } from '../../cli/log-line-color.js';
import { terminalSink } from '../../core/log/terminal-sink.js';
import type { LogLevel } from '../../core/log/log-record.js';

const test = suite('app serve: log levels coloured in its terminal output, as in profiles show');

/** What the dev server's sink prints for one record. */
function sinkLine(level: LogLevel, message: string, channel = 'app'): string {
  let line = '';
  terminalSink(
    'DEBUG',
    (l) => (line = l),
  )({ time: Date.UTC(2026, 10, 25, 16, 53, 30), level, channel, message, context: {} });
  return line;
}

test('when colour is on, then each level gets its colour and the rest of the line is untouched', () => {
  const cases: [LogLevel, string][] = [
    ['DEBUG', '2'],
    ['INFO', '32'],
    ['NOTICE', '34'],
    ['WARNING', '33'],
    ['ERROR', '31'],
    ['CRITICAL', '31'],
  ];
  for (const [level, code] of cases) {
    const line = sinkLine(level, 'Matched route "hello".');
    const painted = paintLogLevel(line, true);
    assert.ok(painted.startsWith(`16:53:30 \x1b[${code}m${level}\x1b[`), painted);
    assert.is(painted.replace(/\x1b\[[0-9;]*m/g, ''), line);
  }
});

test('when colour is off (NO_COLOR, not a TTY), then the line is unchanged', () => {
  const line = sinkLine('ERROR', 'boom');
  assert.is(paintLogLevel(line, false), line);
});

test('when a line is not a log record, or its message mimics one, then only a real level at the start is styled', () => {
  for (const line of [
    'GET /hello/ann 200 1.4 ms 3f2a1c',
    'warning: route "a" shadows route "b"',
    'Reloaded app.config.ts (3 routes).',
  ]) {
    assert.is(paintLogLevel(line, true), line);
  }
  const mimic = sinkLine('INFO', '16:53:30 ERROR    [x] \x1b[2J');
  const painted = paintLogLevel(mimic, true);
  assert.is((painted.match(/\x1b\[/g) ?? []).length, 2, painted);
  assert.ok(painted.includes('\\x1b[2J'), "the message's escape stays visible, not obeyed");
});

test.run();
