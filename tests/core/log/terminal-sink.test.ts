import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { terminalSink } from '../../../core/log/terminal-sink.js';
import { terminalSafe } from '../../../render/text/terminal-safe.js';
import { assertNoRawControls, TERMINAL_PAYLOADS } from '../../hardening/terminal-harness.js';

const test = suite('terminalSink: one printed line per record, whatever the record holds');

for (const { name, payload } of TERMINAL_PAYLOADS) {
  test(`when channel and message hold ${name}, then the line shows them escaped`, () => {
    const lines: string[] = [];
    terminalSink('WARNING', (line) => lines.push(line))({
      time: 0,
      level: 'ERROR',
      channel: `app${payload}`,
      message: `said ${payload}`,
      context: {},
    });
    assert.is(lines.length, 1);
    assertNoRawControls(lines[0], name);
    assert.is(lines[0], `00:00:00 ERROR    [app${terminalSafe(payload)}] said ${terminalSafe(payload)}`);
  });
}

test.run();
