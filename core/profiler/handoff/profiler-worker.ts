import { parentPort } from 'node:worker_threads';
import { buildRecordedProfiles, type BuiltBatch, type RouteTableMessage } from './build-batch.js';
import { RouteTables } from './route-tables.js';

/**
 * The profiler's worker thread: it turns the request records the main thread hands over
 * into stored profiles (one collector per panel, redaction, the stored form's JSON) and
 * sends back their bytes and summaries for the store's write path.
 */
const tables = new RouteTables();
const names: string[] = [];

parentPort?.on('message', (message: RouteTableMessage | { type: 'batch'; id: number; records: ArrayBuffer; count: number }) => {
  if (message.type === 'routes') {
    tables.set(message.id, message.routes);
    return;
  }
  const built: BuiltBatch = buildRecordedProfiles(message.records, tables, names);
  parentPort!.postMessage({ type: 'built', id: message.id, ...built }, [built.jsons]);
});
