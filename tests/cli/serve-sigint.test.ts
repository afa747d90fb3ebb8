import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { runApp, startServe } from '../helpers/cli.js';
import { fetchText } from '../helpers/serve.js';

const test = suite('app serve and SIGINT (Ctrl-C)');

test("when SIGINT arrives right after a request, then exit 0 and the request's profile is in the store", async () => {
  const dir = mkdtempSync(join(tmpdir(), 'appkernel-sigint-'));
  const store = join(dir, 'store');
  try {
    const serve = await startServe(['--store', store, '--no-watch'], { cwd: dir });
    const token = (await fetchText(`${serve.base}/robots.txt`)).headers['x-debug-token'];
    const exited = new Promise<number | null>((resolve) => serve.child.once('exit', resolve));
    serve.child.kill('SIGINT');
    assert.is(await exited, 0, serve.output());
    assert.match(serve.output(), /SIGINT: finishing requests in flight and profile writes/);
    const show = await runApp(['profiles', 'show', token, '--json', '--store', store]);
    assert.is(show.code, 0, show.stderr);
    assert.is(JSON.parse(show.stdout).status, 404);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test.run();
