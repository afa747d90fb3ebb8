// Stores written before profiles were grouped into blocks: one profile per record (format 1) and
// index lines without a slot. They open and read as they are, and a new writer appends blocks beside them.
import { crc32, deflateRawSync } from 'node:zlib';
import { mkdirSync, writeFileSync } from 'node:fs';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { DICTIONARY_V1 } from '../../../../core/profiler/storage/compression-dictionary.js';
import { profile200, profile404 } from '../fixtures.js';
import { openTempStore, type TempStore } from './temp-store.js';
import { storedEntry } from '../../../../core/profiler/storage/stored-entry.js';

const T0 = Math.floor(Date.now() / 1000) * 1000 - 3_600_000;

/** A format-1 record: header "ak", 1, payload length, CRC-32, then one profile deflated with the dictionary. */
function singleRecord(json: string): Buffer {
  const payload = deflateRawSync(json, { level: 6, dictionary: DICTIONARY_V1 });
  const header = Buffer.alloc(11);
  header.write('ak', 0, 'latin1');
  header[2] = 1;
  header.writeUInt32LE(payload.length, 3);
  header.writeUInt32LE(crc32(payload), 7);
  return Buffer.concat([header, payload]);
}

const test = suite('stores of single-profile records');
let store: TempStore;
test.after.each(async () => {
  await store.remove();
});

test('when a sealed segment holds format-1 records and 9-field index lines, then it lists and reads as before, and new profiles go beside it', async () => {
  store = await openTempStore();
  await store.storage.close();
  const profiles = [profile200({ token: 'aaaaa1', time: T0 }), profile404({ token: 'aaaaa2', time: T0 + 1 })];
  const records = profiles.map((p) => singleRecord(JSON.stringify(p)));
  let offset = 0;
  const lines = profiles.map((p, i) => {
    const line = JSON.stringify([
      p.token,
      p.status,
      p.ip,
      p.method,
      p.url,
      p.time,
      p.duration,
      offset,
      records[i].length,
    ]);
    offset += records[i].length;
    return `${line}\n`;
  });
  mkdirSync(store.dir, { recursive: true });
  writeFileSync(`${store.dir}/000001-1.log`, Buffer.concat(records));
  writeFileSync(`${store.dir}/000001-1.idx`, `${lines.join('')}${JSON.stringify(['seal', offset])}\n`);

  const storage = await store.reopen();
  assert.equal(store.warnings, []);
  assert.equal(
    (await storage.search({ limit: 10 })).map((s) => s.token),
    ['aaaaa2', 'aaaaa1'],
  );
  assert.equal(await storage.read('aaaaa1'), profiles[0]);
  assert.equal(await storage.read('aaaaa2'), profiles[1]);

  storage.writeBatch([storedEntry(profile200({ token: 'bbbbb1', time: T0 + 2 }))]);
  await storage.flush();
  const again = await store.reopen();
  assert.equal(
    (await again.search({ limit: 10 })).map((s) => s.token),
    ['bbbbb1', 'aaaaa2', 'aaaaa1'],
  );
  assert.is((await again.read('aaaaa2'))?.status, 404);
  assert.equal(store.warnings, []);
});

test.run();
