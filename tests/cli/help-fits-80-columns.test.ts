import type { Command } from 'commander';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { makeProgram } from '../../cli/main.js';
import { processOutput } from '../../cli/output.js';
import { visibleWidth } from '../../render/text/fit.js';
import { runApp, runAppInProcess } from '../helpers/cli.js';

/** Every command's path from the program itself, so a command added later is walked too. */
function commandPaths(command: Command, path: string[] = []): string[][] {
  return [path, ...command.commands.flatMap((sub) => commandPaths(sub, [...path, sub.name()]))];
}

const paths = commandPaths(makeProgram(processOutput()));

test('the program has the commands this test means to walk', () => {
  for (const name of ['serve', 'replay', 'snapshot', 'routes match', 'profiles list', 'profiles tail', 'init', 'mcp']) {
    assert.ok(
      paths.some((p) => p.join(' ') === name),
      name,
    );
  }
});

for (const columns of [80, 100]) {
  test(`at COLUMNS=${columns}, every command's --help, examples included, fits 80 columns`, async () => {
    const wide: string[] = [];
    for (const [i, path] of paths.entries()) {
      const r = await (i === 0 ? runApp : runAppInProcess)([...path, '--help'], { env: { COLUMNS: String(columns) } });
      assert.is(r.code, 0, `${path.join(' ')}: ${r.stderr}`);
      for (const line of r.stdout.split('\n'))
        if (visibleWidth(line) > 80) wide.push(`app ${path.join(' ')} (${visibleWidth(line)}): ${line}`);
    }
    assert.equal(wide, []);
  });
}

test.run();
