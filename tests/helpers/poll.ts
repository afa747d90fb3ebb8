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

/** Whether the server's output matched `pattern` within `ms`. */
export function outputShows(serve: ServeProcess, pattern: RegExp, ms: number): Promise<boolean> {
  return waitFor(() => pattern.test(serve.output()), ms);
}
