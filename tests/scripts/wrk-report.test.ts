import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { parseWrkOutput } from '../../scripts/bench/load.js';

const REPORT = `Running 1s test @ http://127.0.0.1:8916/nope
  1 threads and 10 connections
  Thread Stats   Avg      Stdev     Max   +/- Stdev
    Latency   303.02us  677.82us  14.80ms   94.02%
    Req/Sec    58.30k    22.92k   72.54k    81.82%
  Latency Distribution
     50%  125.00us
     75%  225.00us
     90%  534.00us
     99%    2.90ms
  63547 requests in 1.10s, 12.00MB read
  Socket errors: connect 0, read 2, write 1, timeout 4
  Non-2xx or 3xx responses: 63540
Requests/sec:  57761.49
Transfer/sec:     10.91MB
`;

const test = suite('bench:http reads the report of wrk');

test('when wrk reports its latency distribution, errors and failed statuses, then each figure is read in ms and counts', () => {
  assert.equal(parseWrkOutput(REPORT), {
    rps: 57761.49,
    p50: 0.125,
    p99: 2.9,
    requests: 63547,
    errors: 7,
    non2xx: 63540,
  });
});

test('when a run had no socket errors nor failed statuses, then wrk leaves those lines out and they count 0', () => {
  const clean = REPORT.replace(/ {2}Socket errors.*\n/, '').replace(/ {2}Non-2xx.*\n/, '');
  const r = parseWrkOutput(clean);
  assert.is(r.errors, 0);
  assert.is(r.non2xx, 0);
});

test('when the report has no request count (wrk failed to connect), then it is an error that shows the report', () => {
  assert.throws(
    () => parseWrkOutput('unable to connect to 127.0.0.1:1 Connection refused\n'),
    /no request count[\s\S]*Connection refused/,
  );
});

test.run();
