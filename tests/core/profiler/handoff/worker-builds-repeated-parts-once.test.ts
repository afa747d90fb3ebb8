import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createApp } from '../../../../core/app/app.js';
import { buildKernel } from '../../../../core/kernel/build-kernel.js';
import { recordingTools } from '../../../../core/debug/recording-tools.js';
import { serialisedJson, serialiseOnce } from '../../../../core/debug/request-recording.js';
import { REDACTED } from '../../../../core/redaction/index.js';
import { RouteCollection } from '../../../../core/routing/route-collection.js';
import { htmlErrorRenderer } from '../../../../render/error-renderer.js';
import type { Profile } from '../../../../core/profiler/profile.js';
import { workerAndLiveProfiles } from './worker-and-live-profiles.js';

const test = suite(
  "the profiler worker builds what repeats from one request to the next once: the configuration panel, the dispatcher's log records",
);

const config = serialiseOnce({
  node: 'v20',
  appkernel: '0.1.0',
  app: null,
  appFile: null,
  options: { port: '8000' },
  store: 'postgres://me:pw@db/profiles',
  env: {
    HOME: '/home/me',
    API_TOKEN: 'tok',
    SHARED_VALUE: 'shared-value-77aa',
    DATABASE_URL: 'postgres://me:hunter22@db/app',
  },
  redacted: [],
});
const app = createApp({ name: 'repeats' })
  .get('plain', '/plain', ({ trace }) => {
    trace.addEntry('config', config);
    return 'plain';
  })
  .get('hello', '/hello/{name}', ({ params }) => `hello ${params.name}`);
const kernel = buildKernel(app, {
  debug: true,
  root: process.cwd(),
  errorRenderer: htmlErrorRenderer,
  recording: recordingTools,
});

const profilesOf = (headers: Record<string, string>[]) =>
  workerAndLiveProfiles(
    kernel,
    new RouteCollection(),
    headers.map((extra) => ({ target: '/plain', headers: extra })),
    'abc00',
  );

test('when requests carry no secret value, then they share one configuration panel, redacted once, whose JSON text is made once', async () => {
  const { worker, live } = await profilesOf([{}, {}, {}]);
  const [one, two, three] = worker.map((profile) => profile.collectors.config);
  assert.ok(one !== null);
  assert.is(two, one);
  assert.is(three, one);
  assert.ok(serialisedJson(one) !== undefined, 'its JSON was made with the panel');
  assert.is(one!.env.API_TOKEN, REDACTED);
  assert.is(one!.env.DATABASE_URL, `postgres://${REDACTED}@db/app`);
  assert.is(one!.env.SHARED_VALUE, 'shared-value-77aa');
  assert.is(live[0].collectors.config, live[1].collectors.config, "the main thread's builder shares it too");
  assert.equal(
    worker.map((profile) => profile.collectors.config),
    live.map((profile) => profile.collectors.config),
  );
});

test('when a request carries a secret value that is also in the environment, then its configuration panel is its own, with that value scrubbed', async () => {
  const { worker } = await profilesOf([{}, { authorization: 'Bearer shared-value-77aa' }, {}]);
  const [one, two, three] = worker.map((profile) => profile.collectors.config);
  assert.is.not(two, one);
  assert.is(two!.env.SHARED_VALUE, REDACTED);
  assert.is(one!.env.SHARED_VALUE, 'shared-value-77aa');
  assert.is(three, one, 'the next request without secrets shares the first panel again');
});

test("when the dispatcher's records repeat from one request to the next, then their redacted message and context are made once and shared", async () => {
  const { worker, live } = await profilesOf([{}, {}, { authorization: 'Bearer ConsumeBody-secret-1' }]);
  const eventRecords = (profile: Profile) =>
    profile.collectors.log.records.filter((record) => record.channel === 'event');
  const [one, two, three] = worker.map(eventRecords);
  assert.ok(one.length > 3);
  one.forEach((record, i) => {
    assert.is(two[i].context, record.context, 'the same context object');
    assert.is(two[i].message, record.message);
    assert.is.not(three[i].context, record.context, 'a request with secret values has its own');
  });
  assert.equal(worker.map(eventRecords), live.map(eventRecords));
});

test('when the same URL is asked again, then its "Matched route" record\'s redacted context is made once and shared, and another URL or a secret value gets its own', async () => {
  const { worker, live } = await workerAndLiveProfiles(
    kernel,
    new RouteCollection(),
    [
      { target: '/hello/ann-7f3e9a2b' },
      { target: '/hello/ann-7f3e9a2b' },
      { target: '/hello/bob' },
      { target: '/hello/ann-7f3e9a2b', headers: { authorization: 'Bearer ann-7f3e9a2b' } },
      { target: '/hello/ann-7f3e9a2b' },
    ],
    'abc10',
  );
  const matched = (profile: Profile) =>
    profile.collectors.log.records.find(
      (record) => record.channel === 'request' && record.message.startsWith('Matched route'),
    )!;
  const [one, two, bob, secret, again] = worker.map(matched);
  assert.is(two.context, one.context, 'the same context object');
  assert.ok(serialisedJson(one.context) !== undefined, 'its JSON made once');
  assert.is.not(bob.context, one.context);
  assert.equal((bob.context.route_parameters as Record<string, string>).name, 'bob');
  assert.is.not(secret.context, one.context, 'a request with secret values has its own');
  assert.is((secret.context.route_parameters as Record<string, string>).name, REDACTED);
  assert.is(again.context, one.context);
  assert.equal(worker.map(matched), live.map(matched));
});

test.run();
