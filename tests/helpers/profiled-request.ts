import { fetchText, type Fetched, type TestServer } from './serve.js';

/**
 * GET `path` and wait until its profile is in the store (queued counts): the profile is written at
 * kernel.terminate, after the response. Waiting on the store, not over HTTP, keeps the list of stored
 * profiles exactly the requests a test made.
 */
export async function fetchProfiled(
  t: TestServer,
  path: string,
  headers: Record<string, string> = {},
): Promise<Fetched & { token: string }> {
  const response = await fetchText(`${t.base}${path}`, { headers });
  const token = response.headers['x-debug-token'];
  if (!token) throw new Error(`GET ${path} answered ${response.status} without X-Debug-Token`);
  const storage = t.server.storage;
  if (!storage) throw new Error('the test server has no profile store (debug is off)');
  for (let i = 0; !storage.has(token); i++) {
    if (i > 1000) throw new Error(`the profile ${token} of GET ${path} was never stored`);
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
  return { ...response, token };
}
