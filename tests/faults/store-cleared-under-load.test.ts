import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { request } from 'undici';
import { runApp } from '../helpers/cli.js';
import { serveFaults, type FaultServer } from './fault-server.js';

const test = suite('app profiles clear run again and again while the server writes under load');
let t: FaultServer;
test.before(async () => {
  t = await serveFaults();
});
test.after(async () => {
  await t.stop();
});

test('when the store is cleared 10 times under 20 connections of load, then the server keeps serving and prints a bounded number of warning lines', async () => {
  let stop = false;
  let served = 0;
  const load = async () => {
    while (!stop) {
      const r = await request(`${t.base}/hello/load`);
      await r.body.text();
      if (r.statusCode === 200) served++;
    }
  };
  const loaders = Array.from({ length: 20 }, load);
  const started = Date.now();
  for (let i = 0; i < 10; i++) {
    const r = await runApp(['profiles', 'clear', '--store', t.storeDir]);
    assert.is(r.code, 0, r.stderr);
  }
  stop = true;
  await Promise.all(loaders);
  await t.server.storage?.flush();
  const seconds = (Date.now() - started) / 1000;
  const warnings = t.lines.filter((line) => line.startsWith('warning: '));
  assert.ok(served > 100, `${served} requests served`);
  assert.ok(
    warnings.length <= 2 + 2 * Math.ceil(seconds / 5),
    `${warnings.length} warning lines in ${seconds.toFixed(1)} s:\n${warnings.join('\n')}`,
  );
});

test.run();
