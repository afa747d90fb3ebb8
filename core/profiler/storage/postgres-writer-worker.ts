import { parentPort, workerData } from 'node:worker_threads';
import pg from 'pg';
import { insertRows, type ProfileRow } from './postgres-insert.js';

// The profile store's inserts, off the main thread: rows in, the tokens written (or the error) out.
const pool = new pg.Pool({ connectionString: (workerData as { url: string }).url, max: 1, connectionTimeoutMillis: 3_000, idleTimeoutMillis: 10_000, application_name: 'appkernel profile writer' });
pool.on('error', () => {});

parentPort!.on('message', (message: { id: number; heads: Omit<ProfileRow, 'body'>[]; bodies: Uint8Array; ends: number[] }) => {
  const { heads, bodies, ends } = message;
  const rows = heads.map((head, i) => ({ ...head, body: Buffer.from(bodies.buffer, bodies.byteOffset + (i === 0 ? 0 : ends[i - 1]), ends[i] - (i === 0 ? 0 : ends[i - 1])) }));
  insertRows(pool, rows).then(
    (written) => parentPort!.postMessage({ id: message.id, written }),
    (error: { message?: string; code?: string }) => parentPort!.postMessage({ id: message.id, error: { message: String(error?.message ?? error), code: error?.code } }),
  );
});
