import { createServer } from 'node:net';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { runApp } from '../helpers/cli.js';

const test = suite('app serve refuses what it must');

test('when a non-loopback host is given with the profiler on, then it is refused with exit 2', async () => {
  const r = await runApp(['serve', '--host', '0.0.0.0', '--port', '0']);
  assert.is(r.code, 2);
  assert.match(r.stderr, /--expose-profiler/);
  assert.is(r.stderr.trim().split('\n').length, 1);
});

test('when the port is in use, then a one-line error and exit 2', async () => {
  const blocker = createServer();
  await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
  const port = (blocker.address() as { port: number }).port;
  try {
    const r = await runApp(['serve', '--port', String(port)]);
    assert.is(r.code, 2);
    assert.match(r.stderr, new RegExp(`port ${port} is already in use`));
    assert.is(r.stderr.trim().split('\n').length, 1);
  } finally {
    blocker.close();
  }
});

test('when the port is not a number, then a usage error with exit 2', async () => {
  const r = await runApp(['serve', '--port', 'eighty']);
  assert.is(r.code, 2);
  assert.match(r.stderr, /Invalid port "eighty"/);
});

test.run();
