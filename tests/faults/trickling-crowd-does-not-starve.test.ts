import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { DEFAULT_TIMEOUTS } from '../../core/http/server.js';
import { serveFaults, waitFor, type FaultServer } from './fault-server.js';
import { needOpenFiles } from './open-file-limit.js';
import { rawClient } from './raw-client.js';
import { tricklingCrowd, type TricklingCrowd } from './trickling-crowd.js';

const TRICKLERS = 1_100;
const DRIP_MS = 2_000;
const PROBES = 30;
const PROBE_EVERY_MS = 200;
/** the longest a trickler may live: the rate's first window, a sweep, and room for a loaded machine */
const LIFETIME_BOUND_MS = DEFAULT_TIMEOUTS.slowRequestGrace + 2_000;

needOpenFiles(4096);

/** A fresh connection asking for one page; its status, or null when it got no answer within 3 s. */
async function probe(base: string, i: number): Promise<number | null> {
  const client = rawClient(base);
  client.socket.on('connect', () =>
    client.socket.write(`GET /hello/probe${i} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`),
  );
  const timer = setTimeout(() => client.socket.destroy(), 3_000);
  const answer = await client.closed;
  clearTimeout(timer);
  const status = /^HTTP\/1\.1 (\d{3}) /.exec(answer);
  return status ? Number(status[1]) : null;
}

const test = suite(
  `${TRICKLERS} trickling connections (half heads, half bodies, a byte every ${DRIP_MS / 1000} s, made again when closed) against the default server (cap ${DEFAULT_TIMEOUTS.maxConnections})`,
);
let t: FaultServer;
let crowd: TricklingCrowd | null = null;
test.before(async () => {
  t = await serveFaults();
});
test.after(async () => {
  crowd?.stop();
  await t.stop();
});

test('when they hold the connection cap, then fresh requests are answered meanwhile, and each trickler is closed (408) within a bound', async () => {
  assert.is(DEFAULT_TIMEOUTS.maxConnections, 1024, 'the open-file limit leaves the default cap whole');
  crowd = tricklingCrowd(t.base, TRICKLERS, DRIP_MS, 250);
  await waitFor(`${TRICKLERS} trickling connections made`, () => crowd!.connected() >= TRICKLERS, 10_000);

  const probes: Promise<number | null>[] = [];
  const openAtProbe: number[] = [];
  for (let i = 0; i < PROBES; i++) {
    openAtProbe.push(crowd.open());
    probes.push(probe(t.base, i));
    await new Promise((resolve) => setTimeout(resolve, PROBE_EVERY_MS));
  }
  const statuses = await Promise.all(probes);
  const closed = [...crowd.closed];
  crowd.stop();

  const answered = statuses.filter((s) => s === 200).length;
  const longest = Math.max(...closed.map((c) => c.livedMs));
  const answers = closed.filter((c) => c.answer !== '');
  console.log(
    `probes answered: ${answered} of ${PROBES}; trickling connections open when each probe was sent: ${Math.min(...openAtProbe)} to ${Math.max(...openAtProbe)}; ` +
      `tricklers closed by the server: ${closed.length}, longest lived ${longest} ms, ${answers.length} answered 408 ` +
      `(${answers.filter((c) => c.answer.includes('slower than')).length} too slow, ${answers.filter((c) => c.answer.includes('connection limit')).length} in the way of a new connection)`,
  );
  assert.equal(
    statuses,
    statuses.map(() => 200),
    'every probe was answered 200',
  );
  // The tricklers are closed together and come back together: between, fewer are open for a moment.
  const median = [...openAtProbe].sort((a, b) => a - b)[Math.floor(PROBES / 2)];
  assert.ok(
    median >= DEFAULT_TIMEOUTS.maxConnections * 0.95,
    `trickling connections open while the probes ran: ${openAtProbe.join(' ')}`,
  );
  assert.ok(
    closed.length >= TRICKLERS,
    `${closed.length} trickling connections closed by the server while the probes ran`,
  );
  assert.ok(longest <= LIFETIME_BOUND_MS, `a trickling connection lived ${longest} ms`);
  for (const c of answers)
    assert.match(
      c.answer,
      /^HTTP\/1\.1 408 Request Timeout\r\n[^]*\r\n\r\nRequest Timeout: the (request arrived slower than 100 bytes per second|server is at its connection limit and this request was still incomplete)\.\n$/,
    );
  assert.ok(
    answers.length >= closed.length / 2,
    `${answers.length} of ${closed.length} closed tricklers were answered 408`,
  );
});

test.run();
