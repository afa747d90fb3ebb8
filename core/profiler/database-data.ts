import type { DatabaseTarget } from '../debug/database-query.js';

export type { DatabaseTarget };

/** The app's frame that ran a query. */
export interface QueryFrame {
  function: string;
  /** relative to the app's root when inside it */
  file: string | null;
  line: number | null;
}

/** One query, redacted. */
export interface DatabaseQueryData {
  driver: 'pg' | 'mysql2';
  /** the statement as the driver was given it (mysql2's query() with its values already inlined) */
  sql: string;
  /** the bound parameters ($1…, or mysql2's `?`), as JSON values */
  params: unknown[];
  /** the statement with its parameters inlined, quoted by the driver's rules; runnable but for values shown redacted */
  runnable: string;
  /** ms since the request started */
  start: number;
  duration: number | null;
  /** rows returned or affected */
  rows: number | null;
  error: string | null;
  database: DatabaseTarget;
  frame: QueryFrame | null;
  /** its stack was not taken (a statement run many times): `frame` is where its statement's earlier runs came from */
  frameAssumed: boolean;
  slow: boolean;
  /** its statement's index in DatabaseData.groups */
  group: number;
  /** what was redacted: "$2", "literal after password", … */
  redacted: string[];
}

/** One statement shape and how often it ran. */
export interface QueryGroupData {
  shape: string;
  count: number;
  /** ms */
  totalTime: number;
}

/** One statement run many times from one place (an N+1). */
export interface RepeatedQueryData {
  shape: string;
  frame: QueryFrame;
  count: number;
  /** ms */
  totalTime: number;
}

/** The Database panel: the queries the request's code ran through pg and mysql2. */
export interface DatabaseData {
  queries: DatabaseQueryData[];
  /** most run first */
  groups: QueryGroupData[];
  repeated: RepeatedQueryData[];
  /** ms, the queries' durations added up */
  totalTime: number;
  errors: number;
  slow: number;
  /** the threshold queries were marked slow by; null when none was set */
  slowMs: number | null;
}
