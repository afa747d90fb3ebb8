import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';

// The tree is formatted by Biome (biome.json: width 120, the project's quotes and commas); `npm run format` fixes it.
const test = suite('the source tree is formatted');

const biome = join(dirname(createRequire(import.meta.url).resolve('@biomejs/biome/package.json')), 'bin', 'biome');

function run(args: string[]): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [biome, ...args], { maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) => {
      resolve({ code: error ? Number(error.code ?? 1) : 0, output: `${stdout}${stderr}` });
    });
  });
}

test('when Biome checks the formatting of every file it formats, then it finds none to change', async () => {
  const { code, output } = await run(['format', '--max-diagnostics=20', '.']);
  const files = [...output.matchAll(/^(\S+\.\w+) format /gm)].map(([, file]) => file);
  assert.is(code, 0, `run \`npm run format\`; not formatted:\n${files.join('\n') || output}`);
});

test.run();
