import pg from 'pg';
import type { PostgresWriterSpec, StoredEntry, WrittenReport } from './profile-storage.js';
import { ServerName } from '../server-name.js';
import { planInsertsOnce } from './postgres-insert.js';
import { PostgresQueue } from './postgres-queue.js';

/** how long close() keeps trying to write the queue to a database that is away (the handoff waits 5 s for it) */
const CLOSE_WAIT_MS = 4_000;
/** the connection's name in pg_stat_activity */
export const WRITER_APPLICATION_NAME = 'appkernel profile writer';

/**
 * The PostgreSQL store's write side in the thread that builds the profiles: a queue inserting over
 * a connection of its own. Every batch inserted, every drop and every warning goes to `report`; the
 * main thread's store settles its announcements, counts and warns from there.
 */
export async function openPostgresThreadWriter(spec: PostgresWriterSpec, report: (written: WrittenReport) => void) {
  const pool = new pg.Pool({
    connectionString: spec.url,
    max: 1,
    connectionTimeoutMillis: 3_000,
    idleTimeoutMillis: 10_000,
    application_name: WRITER_APPLICATION_NAME,
    onConnect: planInsertsOnce,
  });
  // An idle connection the server closed: the pool drops it and makes another when needed.
  pool.on('error', () => {});
  const instance = new ServerName(spec.instance);
  let closing: Promise<void> | null = null;
  const queue: PostgresQueue = new PostgresQueue(pool, () => instance.get(), {
    written: (stored, bytes) => report({ stored, dropped: [], warnings: [], bytes }),
    dropped: (tokens, reason) => report({ stored: [], dropped: tokens, warnings: [], dropReason: reason }),
    warn: (message) => report({ stored: [], dropped: [], warnings: [message], away: queue.down }),
  });
  return {
    writeBatch(entries: readonly StoredEntry[]): void {
      if (closing && queue.givingUp) {
        report({
          stored: [],
          dropped: entries.map((entry) => entry.summary.token),
          warnings: [],
          dropReason: 'A profile came after the profile store was closed, so it was dropped.',
        });
        return;
      }
      for (const entry of entries) queue.enqueue(entry);
    },
    close(): Promise<void> {
      closing ??= (async () => {
        queue.giveUpAfter(CLOSE_WAIT_MS);
        await queue.flush();
        await pool.end().catch(() => {});
      })();
      return closing;
    },
  };
}
