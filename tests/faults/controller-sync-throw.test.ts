import { load } from 'cheerio';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { fetchFailure, serveFaultyApp, type FaultyApp } from './faulty-app.js';

const test = suite('a controller that throws synchronously (real server, profiler on)');
let t: FaultyApp;
test.before(async () => {
  t = await serveFaultyApp();
});
test.after(async () => {
  await t.remove();
});

test('when the controller throws, then 500 with the error page, a profile holding the exception and a CRITICAL record, and the server keeps serving', async () => {
  const { body, profile } = await fetchFailure(t, '/sync-throw', 500);
  assert.ok(load(body).root().text().includes('The balance went negative.'));
  assert.equal(
    profile.collectors.exception?.chain.map((e) => [e.class, e.message]),
    [['LedgerError', 'The balance went negative.']],
  );
  assert.ok(
    profile.collectors.log.records.some(
      (r) =>
        r.level === 'CRITICAL' && r.message.startsWith('Uncaught exception LedgerError: "The balance went negative."'),
    ),
  );
});

test('when it throws for many requests at once, then every one is answered 500 and profiled', async () => {
  const answers = await Promise.all(Array.from({ length: 20 }, () => fetchFailure(t, '/sync-throw', 500)));
  assert.is(new Set(answers.map((a) => a.profile.token)).size, 20);
});

test.run();
