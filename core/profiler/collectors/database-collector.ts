import { DATABASE_COLLECTOR, QueryRecord, type QueryEntry } from '../../debug/database-query.js';
import { repeatKey, REPEATED_QUERY_MIN, statementShape } from '../../debug/statement-shape.js';
import type {
  DatabaseData,
  DatabaseQueryData,
  QueryFrame,
  QueryGroupData,
  RepeatedQueryData,
} from '../database-data.js';
import { redactText, type SecretValues } from '../../redaction/index.js';
import { appEntries } from './app-entries.js';
import type { CollectContext } from './collect-context.js';
import { redactQuery } from './redact-sql.js';
import { runnableSql } from './runnable-sql.js';

/** The Database panel: the queries the request's code ran, redacted, grouped by statement, repeated ones flagged. */
export function collectDatabase({ entries, secrets }: CollectContext): DatabaseData | undefined {
  const given = appEntries(entries, DATABASE_COLLECTOR);
  if (given.length === 0) return undefined;
  const groups: QueryGroupData[] = [];
  const groupOf = new Map<string, number>();
  const repeats = new Map<string, RepeatedQueryData>();
  let slowMs: number | null = null;
  const queries = given.map((value) => {
    const entry = value instanceof QueryRecord ? value.toJSON() : value;
    const query = queryData(typeof entry === 'object' && entry !== null ? (entry as Partial<QueryEntry>) : {}, secrets);
    const shape = statementShape(query.sql);
    let group = groupOf.get(shape);
    if (group === undefined) groupOf.set(shape, (group = groups.push({ shape, count: 0, totalTime: 0 }) - 1));
    groups[group].count++;
    groups[group].totalTime += query.duration ?? 0;
    query.group = group;
    const key = repeatKey(shape, query.frame);
    if (key !== null) {
      const repeat = repeats.get(key) ?? { shape, frame: query.frame!, count: 0, totalTime: 0 };
      repeat.count++;
      repeat.totalTime += query.duration ?? 0;
      repeats.set(key, repeat);
    }
    const threshold = (entry as Partial<QueryEntry>)?.slowMs;
    if (typeof threshold === 'number') slowMs = threshold;
    return query;
  });
  const order = groups.map((_, i) => i).sort((a, b) => groups[b].count - groups[a].count || a - b);
  const renumber = new Map(order.map((old, i) => [old, i]));
  for (const query of queries) query.group = renumber.get(query.group)!;
  return {
    queries,
    groups: order.map((i) => groups[i]),
    repeated: [...repeats.values()].filter((repeat) => repeat.count >= REPEATED_QUERY_MIN),
    totalTime: queries.reduce((sum, query) => sum + (query.duration ?? 0), 0),
    errors: queries.filter((query) => query.error !== null).length,
    slow: queries.filter((query) => query.slow).length,
    slowMs,
  };
}

function queryData(entry: Partial<QueryEntry>, secrets: SecretValues): DatabaseQueryData {
  const driver = entry.driver === 'mysql2' ? 'mysql2' : 'pg';
  const clean = redactQuery(
    driver,
    typeof entry.sql === 'string' ? entry.sql : '',
    Array.isArray(entry.params) ? entry.params : [],
    secrets,
  );
  const duration = typeof entry.duration === 'number' ? entry.duration : null;
  const database = entry.database ?? null;
  return {
    driver,
    sql: clean.sql,
    params: clean.params,
    runnable: runnableSql(driver, clean.sql, clean.params),
    start: typeof entry.start === 'number' ? entry.start : 0,
    duration,
    rows: typeof entry.rows === 'number' ? entry.rows : null,
    error: typeof entry.error === 'string' ? secrets.scrub(redactText(entry.error)) : null,
    database: {
      host: typeof database?.host === 'string' ? database.host : null,
      port: typeof database?.port === 'number' ? database.port : null,
      name: typeof database?.name === 'string' ? database.name : null,
      user: typeof database?.user === 'string' ? database.user : null,
    },
    frame: frameOf(entry.frame),
    frameAssumed: entry.frameAssumed === true && frameOf(entry.frame) !== null,
    slow: typeof entry.slowMs === 'number' && duration !== null && duration >= entry.slowMs,
    group: 0,
    redacted: clean.redacted,
  };
}

function frameOf(frame: unknown): QueryFrame | null {
  if (typeof frame !== 'object' || frame === null) return null;
  const { function: fn, file, line } = frame as Partial<QueryFrame>;
  return {
    function: typeof fn === 'string' ? fn : '(anonymous)',
    file: typeof file === 'string' ? file : null,
    line: typeof line === 'number' ? line : null,
  };
}
