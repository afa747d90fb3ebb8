import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  openFileStorage,
  type FileStorage,
  type FileStorageOptions,
} from '../../../../core/profiler/storage/file-storage.js';
import { openProfileIntake, type ProfileIntake } from '../../../../core/profiler/handoff/profile-intake.js';

export interface TempStore {
  storage: FileStorage;
  dir: string;
  warnings: string[];
  reopen(options?: Partial<FileStorageOptions>): Promise<FileStorage>;
  /** Reopens the store behind a server's intake (admission, drop counts); `storage` is then its store. */
  reopenBehindIntake(maxQueue?: number): Promise<ProfileIntake>;
  remove(): Promise<void>;
}

/** A file store in a fresh temporary folder; its warnings are collected instead of printed. */
export async function openTempStore(options: Partial<FileStorageOptions> = {}): Promise<TempStore> {
  const root = options.dir ? null : mkdtempSync(join(tmpdir(), 'appkernel-store-'));
  const dir = options.dir ?? join(root!, 'profiler');
  const warnings: string[] = [];
  const open = (more: Partial<FileStorageOptions> = {}) =>
    openFileStorage({ ...options, ...more, dir, onWarning: (m) => warnings.push(m) });
  const store: TempStore = {
    storage: await open(),
    dir,
    warnings,
    async reopen(more = {}) {
      await store.storage.close();
      store.storage = await open(more);
      return store.storage;
    },
    async reopenBehindIntake(maxQueue) {
      await store.storage.close();
      const intake = await openProfileIntake(dir, { ...options, maxQueue, warn: (m) => warnings.push(m) });
      store.storage = intake.store as FileStorage;
      return intake;
    },
    async remove() {
      await store.storage.close();
      // A profiler worker the suite left running may still be writing (a segment, the token snapshot).
      if (root) rmSync(root, { recursive: true, force: true, maxRetries: 10, retryDelay: 50 });
    },
  };
  return store;
}

/** Another process writing profiles into `dir` as fast as it can (writer-process.ts); resolves once some are on disk. */
export async function startWriterProcess(dir: string): Promise<ChildProcess> {
  const script = fileURLToPath(import.meta.url).replace(/temp-store\.([jt]s)$/, 'writer-process.$1');
  const args = script.endsWith('.ts') ? ['--import', 'tsx', script, dir] : [script, dir];
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'] });
  await new Promise<void>((resolve, reject) => {
    child.stdout!.once('data', () => resolve());
    child.once('exit', (code) => reject(new Error(`the writer process exited with ${code}`)));
  });
  return child;
}
