import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { replay } from '../../../core/profiler/replay.js';
import { profile200 } from './fixtures.js';
import { answerInstanceProof } from '../../helpers/instance-proof-answer.js';

// replay() and the profile it fetches afterwards, against a plain server that plays a profiling one:
// it sends a debug token, and answers its profile's address with what the case needs.
const test = suite(
  'replay(): the new profile is asked for once where it cannot be, a few times while its token is on its way, never when not wanted',
);

let server: Server;
let base = '';
const asked: string[] = [];
/** what /_profiler/<token>.json answers: a problem document's detail, and how many times before the profile */
let answer: { status: number; detail: string; times: number } = { status: 404, detail: '', times: 0 };

test.before(async () => {
  server = createServer((req, res) => {
    if (answerInstanceProof(req, res)) return;
    asked.push(req.url ?? '');
    if (!req.url?.endsWith('.json')) {
      res.writeHead(200, { 'X-Debug-Token': 'b0b0b0', 'Content-Type': 'text/plain' }).end('replayed');
      return;
    }
    if (answer.times-- > 0) {
      res
        .writeHead(answer.status, { 'Content-Type': 'application/problem+json' })
        .end(JSON.stringify({ title: 'Not Found', status: answer.status, detail: answer.detail }));
      return;
    }
    res
      .writeHead(200, { 'Content-Type': 'application/json' })
      .end(JSON.stringify(profile200({ token: 'b0b0b0', url: `${base}/hello/world` })));
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
test.after(() => new Promise<void>((done) => server.close(() => done())));

const recorded = () => profile200({ token: 'a0a0a0', url: `${base}/hello/world` });
const fetches = () => asked.filter((url) => url.endsWith('.json'));

test("when the profile address answers a 404 that is no token's (a route miss), then it is asked once and the answer is the reason", async () => {
  asked.length = 0;
  answer = { status: 404, detail: 'No route found for "GET /base/_profiler/b0b0b0.json"', times: 100 };
  const result = await replay(recorded(), { target: `${base}/base` });
  assert.is(result.profile, null);
  assert.is(
    result.profileProblem,
    'GET /base/_profiler/b0b0b0.json answered 404 (No route found for "GET /base/_profiler/b0b0b0.json")',
  );
  assert.equal(fetches(), ['/base/_profiler/b0b0b0.json']);
});

test('when the server answers "Token not found" twice, then the profile is asked for again until it is there', async () => {
  asked.length = 0;
  answer = { status: 404, detail: 'Token "b0b0b0" not found.', times: 2 };
  const result = await replay(recorded(), {});
  assert.is(result.profile?.token, 'b0b0b0');
  assert.is(result.profileProblem, null);
  assert.is(fetches().length, 3);
});

test('when another status answers, then it is the reason at once', async () => {
  asked.length = 0;
  answer = { status: 500, detail: 'boom', times: 100 };
  const result = await replay(recorded(), {});
  assert.is(result.profileProblem, 'GET /_profiler/b0b0b0.json answered 500 (boom)');
  assert.is(fetches().length, 1);
});

test('when the profile is not wanted (fetchProfile: false), then it is not asked for', async () => {
  asked.length = 0;
  const result = await replay(recorded(), { fetchProfile: false });
  assert.is(result.token, 'b0b0b0');
  assert.equal([result.profile, result.profileProblem, fetches().length], [null, null, 0]);
});

test.run();
