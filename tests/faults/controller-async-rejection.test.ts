import { load } from 'cheerio';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { fetchFailure, serveFaultyApp, type FaultyApp } from './faulty-app.js';

const test = suite('a controller whose promise rejects (real server, profiler on)');
let t: FaultyApp;
test.before(async () => {
  t = await serveFaultyApp();
});
test.after(async () => {
  await t.remove();
});

test('when the controller rejects, then 500 with the error page, a profile holding the exception, and the server keeps serving', async () => {
  const { body, profile } = await fetchFailure(t, '/async-reject', 500);
  assert.ok(load(body).root().text().includes('The ledger is unreachable.'));
  assert.equal(
    profile.collectors.exception?.chain.map((e) => [e.class, e.message]),
    [['LedgerError', 'The ledger is unreachable.']],
  );
  assert.is(profile.collectors.router.route, 'async_reject');
});

test('when a JSON client meets the rejection, then 500 as a problem document, profiled too', async () => {
  const { body, headers, profile } = await fetchFailure(t, '/async-reject', 500, { accept: 'application/json' });
  assert.is(headers['content-type'], 'application/problem+json');
  assert.is(JSON.parse(body).detail, 'The ledger is unreachable.');
  assert.is(profile.collectors.exception?.chain[0].class, 'LedgerError');
});

test.run();
