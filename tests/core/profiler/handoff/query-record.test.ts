import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { type DatabaseTarget, QueryRecord, type StackHolder } from '../../../../core/debug/database-query.js';
import { ByteReader, ByteWriter } from '../../../../core/profiler/handoff/byte-writer.js';
import { readEntries, writeEntries } from '../../../../core/profiler/handoff/request-record.js';

const test = suite(
  "a request's queries cross to the worker field by field, a query's statement, database and place written once when the one before has them",
);

const ORIGIN = 500;
const PG: DatabaseTarget = { host: '127.0.0.1', port: 5432, name: 'app', user: 'ann' };

/** A query whose stack was taken, its frame already found (the app's place), or one assumed from `from`. */
function query(
  sql: string,
  database: DatabaseTarget = PG,
  stack: StackHolder | null = null,
  assumedFrom: StackHolder | null = null,
) {
  const record = new QueryRecord('pg', ORIGIN, ORIGIN + 1, sql, [7], database, '/app', null, stack, assumedFrom);
  record.ended(1, null);
  return record;
}
const place = (line: number): StackHolder => ({ frame: { function: 'list', file: 'app.ts', line } });

function roundTrip(values: unknown[]): { bytes: number; read: unknown[] } {
  const w = new ByteWriter();
  writeEntries(w, new Map([['db', values]]));
  const bytes = new Uint8Array(w.take());
  return { bytes: bytes.length, read: readEntries(new ByteReader(bytes), [], null)!.get('db')! };
}

test('when 20 runs of one statement come from one place, then they read back as written, in fewer bytes than 20 distinct ones', () => {
  const first = place(12);
  const loop = [query('SELECT name FROM users WHERE id = $1', PG, first)];
  for (let i = 1; i < 20; i++) loop.push(query('SELECT name FROM users WHERE id = $1', PG, null, first));
  const { bytes, read } = roundTrip(loop);
  assert.equal(read, JSON.parse(JSON.stringify(loop)));
  assert.equal(
    (read as { frame: { line: number }; frameAssumed: boolean }[]).map((q) => [q.frame.line, q.frameAssumed]),
    Array.from({ length: 20 }, (_, i) => [12, i > 0]),
  );
  const distinct = roundTrip(
    Array.from({ length: 20 }, (_, i) =>
      query(`SELECT name FROM users WHERE id = $1 -- ${i}`, { ...PG, name: `db${i}` }, place(i)),
    ),
  );
  assert.ok(bytes * 2 < distinct.bytes, `${bytes} bytes against ${distinct.bytes}`);
});

test('when queries alternate statements, databases and places, or have none, then each reads back as written', () => {
  const values = [
    query('SELECT 1', PG, place(1)),
    query('SELECT 1', { ...PG, port: 5433 }, place(1)),
    query('SELECT 2', { ...PG, port: 5433 }, place(2)),
    { other: 'value' },
    query('SELECT 2', { ...PG, port: 5433 }, null),
    query('SELECT 2', { host: null, port: null, name: null, user: null }, null),
    query('SELECT 2', { host: null, port: null, name: null, user: null }, place(3)),
  ];
  assert.equal(roundTrip(values).read, JSON.parse(JSON.stringify(values)));
});

test("when a planted record's first query claims the statement of a query before it, then reading it fails with a message, not a TypeError", () => {
  const w = new ByteWriter();
  w.uint(1);
  w.string('db');
  w.uint(1);
  w.uint(4); // a query, field by field (request-record.ts Value.Query)
  w.uint(1 << 9); // its statement is the one before it's (query-record.ts Has.SameSql)
  w.float(0);
  w.string('[]');
  assert.throws(
    () => readEntries(new ByteReader(new Uint8Array(w.take())), [], null),
    /refers to the one before it, and none is/,
  );
});

test.run();
