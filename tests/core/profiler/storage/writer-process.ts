// Run as a child process by the FileStorage tests: writes profiles into the
// store folder given as argument until it is killed, printing "ready" once
// some are on disk.
import { openFileStorage } from '../../../../core/profiler/storage/file-storage.js';
import { nthToken, profile200, profile404 } from '../fixtures.js';
import { storedEntry } from '../../../../core/profiler/storage/stored-entry.js';

const storage = await openFileStorage({ dir: process.argv[2] });
const start = Date.now();
let n = Number(process.argv[3] ?? 0);
let announced = false;
const burst = async () => {
  for (let i = 0; i < 50; i++, n++)
    storage.writeBatch([
      storedEntry((n % 3 ? profile200 : profile404)({ token: nthToken(n), time: start + n, seed: n })),
    ]);
  if (!announced) {
    await storage.flush();
    announced = true;
    process.stdout.write('ready\n');
  }
  setImmediate(burst);
};
void burst();
