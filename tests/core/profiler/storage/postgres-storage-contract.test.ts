import { openPostgresStorage } from '../../../../core/profiler/storage/postgres-storage.js';
import { startTempPostgres } from '../../../helpers/temp-postgres.js';
import { runProfileStorageContract } from './profile-storage.contract.js';

// One server for the file; each test gets a database of its own.
const server = await startTempPostgres();

runProfileStorageContract('PostgresStorage', async () => {
  const storage = await openPostgresStorage({ url: await server.createDatabase(), onWarning: () => {} });
  return { storage, remove: () => storage.close() };
});
