import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { formatRecordLine, parseIndexLines } from '../../../../core/profiler/storage/index-line.js';

const test = suite('index lines: the route column, and lines written before it');

const summary = {
  token: 'a1b2c3',
  status: 200,
  ip: '127.0.0.1',
  method: 'GET',
  url: 'http://127.0.0.1:8000/hello/x',
  time: 1_760_000_000_123,
  duration: 4.2171,
  route: 'hello',
};

test('when a summary with a route is written and read back, then the route comes back', () => {
  const parsed = parseIndexLines(formatRecordLine(summary, 10, 20, 3));
  assert.equal(parsed.records, [{ summary: { ...summary, duration: 4.217 }, offset: 10, length: 20, slot: 3 }]);
  assert.equal(parsed.garbled, []);
});

test('when lines were written before slots or routes were indexed, then they read with slot 0 and route null', () => {
  const old9 = JSON.stringify(['a1b2c3', 404, '127.0.0.1', 'GET', 'http://x/', 1, 2, 3, 4]);
  const old10 = JSON.stringify(['b1b2c3', 404, '127.0.0.1', 'GET', 'http://x/', 1, 2, 3, 4, 5]);
  const parsed = parseIndexLines(`${old9}\n${old10}\n`);
  assert.equal(
    parsed.records.map((r) => [r.summary.route, r.slot]),
    [
      [null, 0],
      [null, 5],
    ],
  );
});

test('when the route column is not a string or null, then the line is garbled', () => {
  const bad = JSON.stringify(['a1b2c3', 404, '127.0.0.1', 'GET', 'http://x/', 1, 2, 3, 4, 5, 7]);
  assert.equal(parseIndexLines(`${bad}\n`).garbled, [1]);
});

test('when summaries hold odd values, then each line is exactly the JSON of its array', () => {
  const odd = [
    summary,
    { ...summary, url: 'http://127.0.0.1:8000/q?a="b"&c=\\d\u2028é€🎉', ip: '::1', method: 'PATCH', route: null },
    { ...summary, duration: Number.NaN, time: 1_760_000_000_123.5, status: 599, route: 'ünïcode "route"' },
    { ...summary, duration: Number.POSITIVE_INFINITY, route: undefined as unknown as null },
    { ...summary, duration: -0.0004, token: 'ffffff' },
  ];
  for (const s of odd) {
    for (const [offset, length, slot] of [
      [0, 1, 0],
      [123_456_789, 4096, 31],
    ]) {
      const expected = `${JSON.stringify([s.token, s.status, s.ip, s.method, s.url, s.time, Math.round(s.duration * 1000) / 1000, offset, length, slot, s.route ?? null])}\n`;
      assert.is(formatRecordLine(s, offset, length, slot), expected);
      assert.is(formatRecordLine(s, offset, length, slot), expected, 'again, from the kept quoted forms');
    }
  }
});

test.run();

test('when durations of every size are written, then each is the JSON of the duration rounded to the µs', () => {
  const durations = [
    0,
    0.0004,
    0.0005,
    0.001,
    0.01,
    0.1,
    0.999,
    1,
    1.05,
    1.1,
    4.2171,
    99.9996,
    1234.5678,
    1e9 + 0.123,
    1e11 - 0.001,
  ];
  for (let i = 0; i < 20_000; i++) durations.push(Math.random() * 10 ** Math.floor(Math.random() * 12));
  for (const duration of durations) {
    const line = formatRecordLine({ ...summary, duration }, 1, 2, 3);
    assert.is(JSON.parse(line)[6], Math.round(duration * 1000) / 1000, String(duration));
    assert.is(line.split(',')[6], JSON.stringify(Math.round(duration * 1000) / 1000), String(duration));
  }
});
