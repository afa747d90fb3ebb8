import { load } from 'cheerio';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { fetchFailure, serveFaultyApp, type FaultyApp } from './faulty-app.js';

// The app API registers no kernel listeners of its own; its firewall rules run inside one (kernel.request).
const test = suite('a kernel.request listener that throws: a firewall rule whose check fails');
let t: FaultyApp;
test.before(async () => {
  t = await serveFaultyApp();
});
test.after(async () => {
  await t.remove();
});

test('when the rule check throws, then 500 naming its error, profiled, and the controller never runs', async () => {
  const { body, profile } = await fetchFailure(t, '/guarded', 500);
  assert.ok(load(body).root().text().includes('The access list cannot be read.'));
  assert.is(profile.collectors.exception?.chain[0].class, 'LedgerError');
  const messages = profile.collectors.log.records.map((r) => r.message);
  assert.ok(messages.includes('Checking firewall rule "broken" for "/guarded".'), messages.join('\n'));
  assert.ok(
    !profile.collectors.events.events.some((e) => e.name === 'kernel.controller'),
    'no controller event after the failure',
  );
});

test('when the rule check rejects, then 500 naming its error, profiled', async () => {
  const { profile } = await fetchFailure(t, '/guarded-async', 500);
  assert.is(profile.collectors.exception?.chain[0].message, 'The access service timed out.');
});

test.run();
