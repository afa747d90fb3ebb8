import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startServe } from '../helpers/cli.js';
import { waitFor } from '../helpers/poll.js';
import { fetchText } from '../helpers/serve.js';

// app serve prints one line per request of the app; the developer reading profiles is not the app
// at work, so the profiler's own pages print a line only with --verbose.

const test = suite("app serve request lines: the profiler's own requests only with --verbose (real bin)");
let dir: string;

test.before(() => {
  dir = mkdtempSync(join(tmpdir(), 'appkernel-quiet-profiler-'));
});
test.after(() => rmSync(dir, { recursive: true, force: true }));

for (const verbose of [false, true]) {
  test(`when the app and the profiler pages are requested${verbose ? ' with --verbose' : ''}, then ${verbose ? 'both print' : 'only the app prints'} a request line`, async () => {
    const serve = await startServe(
      ['--store', join(dir, `store-${verbose}`), '--no-watch', ...(verbose ? ['--verbose'] : [])],
      { cwd: dir },
    );
    try {
      await fetchText(`${serve.base}/_profiler/search?limit=10`);
      await fetchText(`${serve.base}/hello/world`);
      assert.ok(await waitFor(() => /GET \/hello\/world 200/.test(serve.output()), 5_000), serve.output());
      assert.is(/GET \/_profiler\/search/.test(serve.output()), verbose, serve.output());
    } finally {
      await serve.stop();
    }
  });
}

test.run();
