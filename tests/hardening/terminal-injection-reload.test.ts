import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startDevServer } from '../../server/dev-server.js';
import { terminalSafe } from '../../render/text/terminal-safe.js';
import { PACKAGE_ENTRY } from '../helpers/cli.js';
import { assertNoRawControls, TERMINAL_PAYLOADS } from './terminal-harness.js';

const test = suite("the dev server's own messages are terminal-safe");

test('when a reload fails with a message holding each class of sequence, then "Reload failed" quotes it escaped on its first line, the code frame under it', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'appkernel-terminal-reload-'));
  const appFile = join(dir, 'app.config.mjs');
  writeFileSync(
    appFile,
    `import { createApp } from ${JSON.stringify(PACKAGE_ENTRY)};\nexport const app = createApp({ name: 'ok' });\n`,
  );
  const lines: string[] = [];
  const server = await startDevServer({
    port: 0,
    host: '127.0.0.1',
    appFile,
    root: dir,
    storeDir: join(dir, 'store'),
    debug: true,
    watch: false,
    logLevel: 'WARNING',
    print: (line) => lines.push(line),
  });
  try {
    for (const { name, payload } of TERMINAL_PAYLOADS) {
      writeFileSync(appFile, `throw new Error(${JSON.stringify(payload)});\n`);
      assert.is(await server.reload(), false, name);
      // The message on the first line; the code frame and the app's frames follow, one per line.
      const [line, ...details] = lines.at(-1)!.split('\n');
      assertNoRawControls(line, name);
      for (const detail of details) assertNoRawControls(detail, `${name}, the lines under the message`);
      assert.ok(
        line.startsWith('Reload failed, the last good app keeps serving: ') &&
          line.includes(`: ${terminalSafe(payload)} (`),
        line,
      );
      assert.ok(
        details.some((detail) => detail.startsWith('>')),
        'the code frame points at the line that threw',
      );
    }
  } finally {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test.run();
