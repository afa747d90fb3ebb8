import type { QueryEntry, QueryRecord } from '../../debug/database-query.js';
import { bitFlags } from './bit-flags.js';
import type { ByteReader, ByteWriter } from './byte-writer.js';

/**
 * A database query in the hand-off record: its numbers and strings field by field, its parameters as
 * JSON, never the whole query as JSON. The worker reads it back into the QueryEntry that
 * QueryRecord.toJSON() would have made, which the Database collector reads.
 */

const Has = bitFlags('Mysql2', 'Duration', 'Rows', 'Error', 'Port', 'Frame', 'Line', 'SlowMs', 'FrameAssumed');

export function writeQueryRecord(w: ByteWriter, query: QueryRecord): void {
  const { duration, rows, error, database, frame, slowMs } = query;
  w.uint(
    (query.driver === 'mysql2' ? Has.Mysql2 : 0) |
      (duration === null ? 0 : Has.Duration) |
      (rows === null ? 0 : Has.Rows) |
      (error === null ? 0 : Has.Error) |
      (database.port === null ? 0 : Has.Port) |
      (frame === null ? 0 : Has.Frame) |
      (frame === null || frame.line === null ? 0 : Has.Line) |
      (slowMs === null ? 0 : Has.SlowMs) |
      (frame !== null && query.frameAssumed ? Has.FrameAssumed : 0),
  );
  w.float(query.start);
  if (duration !== null) w.float(duration);
  if (rows !== null) w.float(rows);
  if (error !== null) w.string(error);
  w.string(query.sql);
  w.string(query.params.length === 0 ? '[]' : JSON.stringify(query.plainParams()));
  w.optionalString(database.host);
  if (database.port !== null) w.float(database.port);
  w.optionalString(database.name);
  w.optionalString(database.user);
  if (frame !== null) {
    w.string(frame.function);
    w.optionalString(frame.file);
    if (frame.line !== null) w.float(frame.line);
  }
  if (slowMs !== null) w.float(slowMs);
}

export function readQueryRecord(r: ByteReader): QueryEntry {
  const has = r.uint();
  const start = r.float();
  const duration = has & Has.Duration ? r.float() : null;
  const rows = has & Has.Rows ? r.float() : null;
  const error = has & Has.Error ? r.string() : null;
  const sql = r.string();
  const params = JSON.parse(r.string()) as unknown[];
  const host = r.optionalString();
  const port = has & Has.Port ? r.float() : null;
  const name = r.optionalString();
  const user = r.optionalString();
  let frame: QueryEntry['frame'] = null;
  if (has & Has.Frame) {
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
    database: { host, port, name, user },
    frame,
    frameAssumed: frame !== null && (has & Has.FrameAssumed) !== 0,
    slowMs,
  };
}
