import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createApp } from '../../../../core/app/app.js';
import { serialisedJson } from '../../../../core/debug/request-recording.js';
import { HttpError } from '../../../../core/errors.js';
import { buildKernel, combinedRoutes } from '../../../../core/kernel/build-kernel.js';
import { recordingTools } from '../../../../core/debug/recording-tools.js';
import { REDACTED } from '../../../../core/redaction/index.js';
import { htmlErrorRenderer } from '../../../../render/error-renderer.js';
import { workerAndLiveProfiles, type ProfiledRequest } from './worker-and-live-profiles.js';

const test = suite(
  'the profiler worker builds the panels of a 404 asked again once: the exception panel, the routing panel',
);

const app = createApp({ name: 'misses' })
  .get('home', '/', () => 'home')
  .get('post', '/posts/{id}', ({ params }) => `post ${params.id}`)
  .get('keyed', '/keyed', ({ log }) => {
    log.info('Using the key kept-secret-4242.');
    throw new HttpError(401, 'Who are you?', {
      'www-authenticate': 'Bearer realm="x"',
      'x-api-key': 'kept-secret-4242',
    });
  });
const kernel = buildKernel(app, {
  debug: true,
  root: process.cwd(),
  errorRenderer: htmlErrorRenderer,
  recording: recordingTools,
});
const routes = combinedRoutes(app, []);

const profilesOf = (requests: ProfiledRequest[]) => workerAndLiveProfiles(kernel, routes, requests, 'def00');

test('when the same 404 is asked again without secret values, then its exception and routing panels are shared, their JSON made once', async () => {
  const { worker, live } = await profilesOf([{ target: '/nope' }, { target: '/nope' }, { target: '/nope' }]);
  const [one, two, three] = worker;
  assert.ok(one.collectors.exception !== null);
  assert.is(two.collectors.exception, one.collectors.exception);
  assert.is(three.collectors.exception, one.collectors.exception);
  assert.is(serialisedJson(one.collectors.exception), JSON.stringify(one.collectors.exception));
  assert.ok(one.collectors.router.explain !== null && one.collectors.router.explain.length === 3);
  assert.is(two.collectors.router, one.collectors.router);
  assert.is(serialisedJson(one.collectors.router), JSON.stringify(one.collectors.router));
  assert.equal(
    worker.map((profile) => profile.collectors.exception),
    live.map((profile) => profile.collectors.exception),
  );
  assert.equal(
    worker.map((profile) => profile.collectors.router),
    live.map((profile) => profile.collectors.router),
  );
});

test('when another path or method misses, then it has a routing panel of its own', async () => {
  const { worker } = await profilesOf([{ target: '/nope' }, { target: '/other' }, { target: '/nope' }]);
  assert.is.not(worker[1].collectors.router, worker[0].collectors.router);
  assert.is(worker[2].collectors.router, worker[0].collectors.router);
  assert.ok(worker[1].collectors.exception!.chain[0]!.message.includes('/other'));
});

test('when a request carries a secret value the exception shows, then its exception panel is its own, scrubbed; the next shares the first again', async () => {
  const target = '/nope/sekret-value-123';
  const { worker } = await profilesOf([
    { target },
    { target, headers: { authorization: 'Bearer sekret-value-123' } },
    { target },
  ]);
  const [one, two, three] = worker.map((profile) => profile.collectors.exception!);
  assert.ok(one.chain[0]!.message.includes('sekret-value-123'));
  assert.is.not(two, one);
  assert.ok(
    two.chain[0]!.message.includes(REDACTED) && !two.chain[0]!.message.includes('sekret-value-123'),
    two.chain[0]!.message,
  );
  assert.is(three, one);
});

test('when the exception holds a secret of its own (a header), then its panel shows it redacted and the later panels are scrubbed of it', async () => {
  const { worker, live } = await profilesOf([{ target: '/keyed' }, { target: '/keyed' }]);
  const [one, two] = worker;
  assert.is.not(two.collectors.exception, one.collectors.exception);
  assert.is(one.collectors.exception!.chain[0]!.headers['x-api-key'], REDACTED);
  assert.equal(
    worker.map((profile) => profile.collectors.log),
    live.map((profile) => profile.collectors.log),
  );
  for (const profile of worker) {
    const message = profile.collectors.log.records.find((record) =>
      record.message.startsWith('Using the key'),
    )?.message;
    assert.is(message, `Using the key ${REDACTED}.`);
  }
});

test.run();
