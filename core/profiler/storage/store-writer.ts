import type { StoredEntry, StoreWriterSpec, WrittenReport } from './profile-storage.js';

/** The write side of a store, opened in the thread that builds the profiles (the profiler worker). */
export interface StoreWriter {
  /** Queues a batch's stored entries, in order; their fate comes back through the report. */
  writeBatch(entries: readonly StoredEntry[]): void;
  /** Writes everything queued, seals this thread's segment and stops; idempotent. */
  close(): Promise<void>;
}

/**
 * Opens the store described by `spec` for writing in this thread: for a store folder, a store of its
 * own (its catalog, segment writer, compression and retention) whose segments this process's other
 * threads know as live. `report` is told, per batch written, which profiles are stored and which
 * were dropped, and each warning as it comes. For a PostgreSQL database, a queue inserting over a
 * connection of its own (postgres-thread-writer.ts). Only the backend asked for is loaded: the worker
 * of a store folder never loads the PostgreSQL client.
 */
export async function openStoreWriter(
  spec: StoreWriterSpec,
  report: (written: WrittenReport) => void,
): Promise<StoreWriter> {
  if (spec.kind === 'postgres') {
    const { openPostgresThreadWriter } = await import('./postgres-thread-writer.js');
    return openPostgresThreadWriter(spec, report);
  }
  const [{ openFileStorage }, { adoptSharedWriting }] = await Promise.all([
    import('./file-storage.js'),
    import('./store-files.js'),
  ]);
  adoptSharedWriting(spec.writing);
  const storage = await openFileStorage({
    dir: spec.dir,
    maxProfiles: spec.limits.maxProfiles,
    maxBytes: spec.limits.maxBytes,
    maxAgeMs: spec.limits.maxAgeMs,
    compressInWorker: false,
    readsTokens: false,
    onWarning: (message) => report({ stored: [], dropped: [], warnings: [message] }),
    onWritten: report,
  });
  return {
    writeBatch: (entries) => storage.writeBatch(entries),
    close: () => storage.close(),
  };
}
