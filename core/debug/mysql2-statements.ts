import { databaseCaptureSettings } from './database-capture-settings.js';

type Method = (this: unknown, ...args: unknown[]) => unknown;

/** mysql2's lib/base/connection.js and lib/base/pool.js: the classes whose query and execute every mysql2 call goes through. */
export interface Mysql2StatementClass {
  prototype: { query?: Method; execute?: Method };
}

const WRAPPED = Symbol.for('appkernel.db.statements');

/** The statement of the query or execute being called, as the app wrote it; set for that synchronous call only. */
let asked: string | undefined;

/**
 * The statement the app gave the mysql2 call now running, before mysql2 inlines a query's values:
 * its TracingChannels publish the text with the values in, a different text for every run of one
 * statement, and a pool's connection request publishes none. Undefined outside such a call.
 */
export function askedStatement(): string | undefined {
  return asked;
}

/** Wraps a mysql2 class's query and execute so that askedStatement() names their statement while they run. */
export function noteMysql2Statements(statementClass: Mysql2StatementClass): void {
  const proto = statementClass?.prototype;
  if (!proto) return;
  for (const name of ['query', 'execute'] as const) {
    const original = proto[name];
    if (typeof original !== 'function' || Object.hasOwn(original, WRAPPED)) continue;
    const wrapped = function (this: unknown, ...args: unknown[]): unknown {
      if (databaseCaptureSettings() === null) return original.apply(this, args);
      const previous = asked;
      asked = statementOf(args[0]);
      try {
        return original.apply(this, args);
      } finally {
        asked = previous;
      }
    };
    Object.defineProperty(wrapped, WRAPPED, { value: true });
    proto[name] = wrapped;
  }
}

/** A string, or the sql of an options object or of mysql2's own Query command. */
function statementOf(first: unknown): string | undefined {
  if (typeof first === 'string') return first;
  const sql = (first as { sql?: unknown } | null | undefined)?.sql;
  return typeof sql === 'string' ? sql : undefined;
}
