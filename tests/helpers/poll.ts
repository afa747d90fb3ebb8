import { fetchText } from './serve.js';
import type { ServeProcess } from './cli.js';

const EVERY_MS = 10;
const pause = () => new Promise((resolve) => setTimeout(resolve, EVERY_MS));

/** Whether `check` came true within `ms`. */
export async function waitFor(check: () => boolean | Promise<boolean>, ms: number): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await check()) return true;
    await pause();
  }
  return false;
}

/** ms until `url` answered `status` (asked again and again), or null when it did not within `ms`. */
export async function answersWithin(url: string, status: number, ms: number): Promise<number | null> {
  const start = Date.now();
  const answered = await waitFor(async () => (await fetchText(url)).status === status, ms);
  return answered ? Date.now() - start : null;
}

/**
 * The `field` of the JSON that `url` answers (`status <code>` for an answer other than 200), asked
 * again until it reads `wanted` or `ms` have passed: what it read last.
 */
export async function jsonFieldWithin(url: string, field: string, wanted: string, ms: number): Promise<string> {
  let now = '';
  await waitFor(async () => {
    const r = await fetchText(url);
    now = r.status === 200 ? String(JSON.parse(r.body)[field]) : `status ${r.status}`;
    return now === wanted;
  }, ms);
  return now;
}

/** Whether the server's output matched `pattern` within `ms`. */
export function outputShows(serve: ServeProcess, pattern: RegExp, ms: number): Promise<boolean> {
  return waitFor(() => pattern.test(serve.output()), ms);
}

/** Whether `wait` has settled by the time the callbacks queued now have run: a wait that holds stays false. */
export async function settledYet(wait: Promise<unknown>): Promise<boolean> {
  let done = false;
  void wait.then(() => {
    done = true;
  });
  await new Promise((resolve) => setImmediate(resolve));
  return done;
}
