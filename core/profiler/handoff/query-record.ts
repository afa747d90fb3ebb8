import type { DatabaseTarget, QueryEntry, QueryRecord } from '../../debug/database-query.js';
import { bitFlags } from './bit-flags.js';
import type { ByteReader, ByteWriter } from './byte-writer.js';
import type { VaryingParts } from './varying-parts.js';

/**
 * A database query in the hand-off record: its numbers and strings field by field, its parameters as
 * JSON, never the whole query as JSON. The worker reads it back into the QueryEntry that
 * QueryRecord.toJSON() would have made, which the Database collector reads. A query's statement,
 * database and place, when the same as the query written before it in the record (`previous`: the
 * loop of an N+1 runs one statement from one place), are written as a flag each.
 */

const Has = bitFlags(
  'Mysql2',
  'Duration',
  'Rows',
  'Error',
  'Port',
  'Frame',
  'Line',
  'SlowMs',
  'FrameAssumed',
  'SameSql',
  'SameDatabase',
  'SameFrame',
);

function sameDatabase(a: DatabaseTarget, b: DatabaseTarget): boolean {
  return a === b || (a.host === b.host && a.port === b.port && a.name === b.name && a.user === b.user);
}

/** `clock`: where the query's start and duration are noted as what changes from one request to the next (varying-parts.ts). */
export function writeQueryRecord(
  w: ByteWriter,
  query: QueryRecord,
  previous: QueryRecord | null = null,
  clock: VaryingParts | null = null,
): void {
  const { duration, rows, error, database, frame, slowMs } = query;
  const sameSql = previous !== null && previous.sql === query.sql;
  const sameTarget = previous !== null && sameDatabase(previous.database, database);
  // one stack's frame is one object: the runs assumed from it, and the runs from one place, share it
  const sameFrame = previous !== null && frame !== null && previous.frame === frame;
  w.uint(
    (query.driver === 'mysql2' ? Has.Mysql2 : 0) |
      (duration === null ? 0 : Has.Duration) |
      (rows === null ? 0 : Has.Rows) |
      (error === null ? 0 : Has.Error) |
      (database.port === null ? 0 : Has.Port) |
      (frame === null ? 0 : Has.Frame) |
      (frame === null || frame.line === null ? 0 : Has.Line) |
      (slowMs === null ? 0 : Has.SlowMs) |
      (frame !== null && query.frameAssumed ? Has.FrameAssumed : 0) |
      (sameSql ? Has.SameSql : 0) |
      (sameTarget ? Has.SameDatabase : 0) |
      (sameFrame ? Has.SameFrame : 0),
  );
  clock?.float(w.length);
  w.float(query.start);
  if (duration !== null) {
    clock?.float(w.length);
    w.float(duration);
  }
  if (rows !== null) w.float(rows);
  if (error !== null) w.string(error);
  if (!sameSql) w.string(query.sql);
  w.string(query.params.length === 0 ? '[]' : JSON.stringify(query.plainParams()));
  if (!sameTarget) {
    w.optionalString(database.host);
    if (database.port !== null) w.float(database.port);
    w.optionalString(database.name);
    w.optionalString(database.user);
  }
  if (frame !== null && !sameFrame) {
    w.string(frame.function);
    w.optionalString(frame.file);
    if (frame.line !== null) w.float(frame.line);
  }
  if (slowMs !== null) w.float(slowMs);
}

/** `previous`: the query read before it in the record, if any; one that refers to it without it is damaged. */
export function readQueryRecord(r: ByteReader, previous: QueryEntry | null = null): QueryEntry {
  const has = r.uint();
  if (previous === null && has & (Has.SameSql | Has.SameDatabase | Has.SameFrame))
    throw new Error('a query refers to the one before it, and none is');
  const start = r.float();
  const duration = has & Has.Duration ? r.float() : null;
  const rows = has & Has.Rows ? r.float() : null;
  const error = has & Has.Error ? r.string() : null;
  const sql = has & Has.SameSql ? previous!.sql : r.string();
  const params = JSON.parse(r.string()) as unknown[];
  const database: DatabaseTarget =
    has & Has.SameDatabase
      ? { ...previous!.database }
      : {
          host: r.optionalString(),
          port: has & Has.Port ? r.float() : null,
          name: r.optionalString(),
          user: r.optionalString(),
        };
  let frame: QueryEntry['frame'] = null;
  if (has & Has.SameFrame) {
    if (previous!.frame === null) throw new Error('a query takes the place of the one before it, which has none');
    frame = { ...previous!.frame };
  } else if (has & Has.Frame) {
    const fn = r.string();
    const file = r.optionalString();
    frame = { function: fn, file, line: has & Has.Line ? r.float() : null };
  }
  const slowMs = has & Has.SlowMs ? r.float() : null;
  return {
    driver: has & Has.Mysql2 ? 'mysql2' : 'pg',
    sql,
    params,
    start,
    duration,
    rows,
    error,
    database,
    frame,
    frameAssumed: frame !== null && (has & Has.FrameAssumed) !== 0,
    slowMs,
  };
}
