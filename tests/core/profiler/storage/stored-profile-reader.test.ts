import { brotliCompressSync, deflateRawSync } from 'node:zlib';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { DICTIONARY_V1 } from '../../../../core/profiler/storage/compression-dictionary.js';
import { bodyAt } from '../../../../core/profiler/storage/postgres-blocks.js';
import { decodeBlock, frameBlock, profileAt } from '../../../../core/profiler/storage/record-codec.js';
import {
  MAX_INFLATED_BYTES,
  parseStoredProfile,
  readStoredEntry,
} from '../../../../core/profiler/storage/stored-profile-reader.js';

/** A small payload that inflates past the cap: what a hostile row in a shared store can hold. */
function bomb(): Buffer {
  return deflateRawSync(Buffer.alloc(MAX_INFLATED_BYTES + 16 * 1024 * 1024, 0x20), {
    level: 9,
    dictionary: DICTIONARY_V1,
  });
}

function brotliBomb(): Buffer {
  return brotliCompressSync(Buffer.alloc(MAX_INFLATED_BYTES + 16 * 1024 * 1024, 0x20));
}

test('when a file-store block inflates past the cap, deflated or brotli, then decoding stops with "inflates to more than", not a multi-GB read', () => {
  for (const [payload, compression] of [
    [bomb(), 'deflate'],
    [brotliBomb(), 'brotli'],
  ] as const) {
    assert.ok(payload.length < 1024 * 1024, `${compression}: ${payload.length} bytes compressed`);
    const decoded = decodeBlock(frameBlock(payload, compression));
    assert.is(decoded.ok, false);
    assert.match((decoded as { problem: string }).problem, /inflates to more than/, compression);
  }
});

test('when a PostgreSQL block inflates past the cap, then bodyAt throws saying so', () => {
  for (const block of [Buffer.concat([Buffer.from([1]), bomb()]), Buffer.concat([Buffer.from([3]), brotliBomb()])])
    assert.throws(() => bodyAt(block, 0), /inflates to more than/);
});

const good = {
  token: 'abc123',
  status: 200,
  time: 1_700_000_000_000,
  url: 'http://x/',
  method: 'GET',
  collectors: { request: { headers: {}, response: {} }, log: { records: [] } },
};

test('when stored JSON has the wrong shape, then each case names its problem instead of reaching a page as a TypeError', () => {
  const cases: [Record<string, unknown>, RegExp][] = [
    [{ ...good, time: 'tomorrow' }, /time/],
    [{ ...good, time: 1e300 }, /time/],
    [{ ...good, status: '200' }, /status/],
    [{ ...good, url: 42 }, /URL/],
    [{ ...good, method: [] }, /method/],
    [{ ...good, collectors: null }, /collectors/],
    [{ ...good, collectors: { log: { records: 'x' } } }, /log/],
    [{ ...good, collectors: { log: { records: [] } } }, /request panel/],
  ];
  for (const [value, problem] of cases) {
    const parsed = parseStoredProfile(JSON.stringify(value));
    assert.is(parsed.ok, false, JSON.stringify(value));
    assert.match((parsed as { problem: string }).problem, problem);
  }
  assert.is(parseStoredProfile(JSON.stringify(good)).ok, true);
});

test('when a file-store block holds a profile dated at an invalid time, then profileAt reports it', () => {
  const decoded = profileAt([Buffer.from(JSON.stringify({ ...good, time: 1e300 }))], 0);
  assert.is(decoded.ok, false);
});

test("when a stored log record points at an event with no listeners, then it reads as the unknown listener's call", () => {
  const stored = {
    ...good,
    collectors: { ...good.collectors, log: { records: [[0, 0, 1]] }, events: { events: [{}] } },
  };
  const read = readStoredEntry(Buffer.from(JSON.stringify(stored)));
  assert.ok(read.ok, JSON.stringify(read));
  const record = (read as { profile: { collectors: { log: { records: { message: string }[] } } } }).profile.collectors
    .log.records[0];
  assert.match(record.message, /\(unknown listener\)/);
});

test.run();
