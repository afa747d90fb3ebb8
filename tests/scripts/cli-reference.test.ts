import { readFileSync } from 'node:fs';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { makeProgram } from '../../cli/main.js';
import { processOutput } from '../../cli/output.js';
import { cliReference, commandPaths } from '../../scripts/cli-reference.js';
import { runApp, runAppInProcess } from '../helpers/cli.js';

// docs/cli-reference.md is the commands' own --help: a change to an option that does not rewrite it fails here.
const test = suite("docs/cli-reference.md is what every command's --help prints");

test('when the reference is made again from the commands, then it equals the committed page (else: npm run docs:cli)', async () => {
  assert.fixture(readFileSync('docs/cli-reference.md', 'utf8'), await cliReference());
});

test("when each command's help is asked (the first of the real bin, the others in this process as the piped bin prints them), then the page holds it word for word", async () => {
  const page = readFileSync('docs/cli-reference.md', 'utf8');
  for (const [i, path] of commandPaths(makeProgram(processOutput())).entries()) {
    const r = await (i === 0 ? runApp : runAppInProcess)([...path, '--help'], { env: { COLUMNS: '80' } });
    assert.is(r.code, 0, r.stderr);
    assert.ok(
      page.includes(`## ${['app', ...path].join(' ')}\n\n\`\`\`text\n${r.stdout.trimEnd()}\n\`\`\``),
      `app ${path.join(' ')} --help`,
    );
  }
});

test('when a command gains an option, then the reference made from the program differs from the page and names it', async () => {
  const withOption = (output: Parameters<typeof makeProgram>[0]) => {
    const program = makeProgram(output);
    program.commands.find((c) => c.name() === 'serve')?.option('--made-up-option', 'an option the page does not know');
    return program;
  };
  const made = await cliReference(withOption);
  assert.ok(made.includes('--made-up-option'));
  assert.is.not(made, readFileSync('docs/cli-reference.md', 'utf8'));
});

test.run();
