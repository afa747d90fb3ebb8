import { AppError } from '../errors.js';

/**
 * Reads a stored profile's data: a store is input (a planted row, a record of a form this build does
 * not know), so a TypeError or the like, which only data of another shape causes, becomes the store's
 * "damaged" error: `cannot`, why, and what failed. The reader's own AppErrors pass as they are.
 */
export function readStoredData<T>(cannot: string, read: () => T): T {
  try {
    return read();
  } catch (error) {
    if (error instanceof AppError) throw error;
    throw new AppError(
      'APP_ERR_PROFILER_STORE_CORRUPT',
      `${cannot}: stored data is damaged or of a form this appkernel does not know (${(error as Error)?.message ?? String(error)}).`,
      { cause: error },
    );
  }
}
