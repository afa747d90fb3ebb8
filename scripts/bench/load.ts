// One bounded load run against one URL: with wrk (Debian's package) when it is installed, since
// it takes about half the CPU autocannon does and so leaves the server more of a 2-core machine;
// else with autocannon, in this process. BENCH_LOAD=autocannon or BENCH_LOAD=wrk picks one.
import { execFile, execFileSync } from 'node:child_process';
import autocannon from 'autocannon';

export interface LoadResult {
  rps: number;
  /** ms */
  p50: number;
  /** ms */
  p99: number;
  requests: number;
  errors: number;
  /** answers whose status is not 2xx (wrk: 4xx and 5xx) */
  non2xx: number;
}

export interface LoadOptions {
  connections: number;
  seconds: number;
  /** sent with every request, e.g. { accept: 'application/json' } */
  headers?: Record<string, string>;
  /** requests per second over all connections (paced load: autocannon, whichever generator is chosen) */
  rate?: number;
}

export type LoadGenerator = 'wrk' | 'autocannon';

/** The generator bench runs use: BENCH_LOAD if set, else wrk when it is on the PATH. */
export function loadGenerator(): LoadGenerator {
  const chosen = process.env.BENCH_LOAD;
  if (chosen === 'autocannon') return chosen;
  if (chosen === 'wrk') {
    if (!hasWrk()) throw new Error('BENCH_LOAD=wrk, but wrk is not installed (apt-get install wrk).');
    return chosen;
  }
  if (chosen) throw new Error(`BENCH_LOAD must be "wrk" or "autocannon", not "${chosen}".`);
  return hasWrk() ? 'wrk' : 'autocannon';
}

function hasWrk(): boolean {
  try {
    execFileSync('wrk', ['--version'], { stdio: 'ignore' });
    return true;
  } catch (error) {
    // wrk --version exits 1 after printing its version: only a missing binary means no wrk.
    return (error as NodeJS.ErrnoException).code !== 'ENOENT';
  }
}

export function load(
  url: string,
  options: LoadOptions,
  generator: LoadGenerator = loadGenerator(),
): Promise<LoadResult> {
  return generator === 'wrk' && options.rate === undefined
    ? loadWithWrk(url, options)
    : loadWithAutocannon(url, options);
}

async function loadWithAutocannon(url: string, options: LoadOptions): Promise<LoadResult> {
  const result = await autocannon({
    url,
    connections: options.connections,
    duration: options.seconds,
    pipelining: 1,
    headers: options.headers,
    ...(options.rate === undefined ? {} : { overallRate: options.rate }),
  });
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    requests: result.requests.total,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
  };
}

function loadWithWrk(url: string, options: LoadOptions): Promise<LoadResult> {
  const headers = Object.entries(options.headers ?? {}).flatMap(([name, value]) => ['-H', `${name}: ${value}`]);
  const args = ['-t1', `-c${options.connections}`, `-d${options.seconds}s`, '--latency', ...headers, url];
  return new Promise((resolve, reject) => {
    execFile('wrk', args, { timeout: (options.seconds + 30) * 1000 }, (error, stdout, stderr) => {
      if (error) return reject(new Error(`wrk ${args.join(' ')} failed: ${error.message}\n${stderr}`));
      try {
        resolve(parseWrkOutput(stdout));
      } catch (parseError) {
        reject(parseError);
      }
    });
  });
}

/** The figures of wrk's report (`--latency`). */
export function parseWrkOutput(text: string): LoadResult {
  const requests = /(\d+) requests in /.exec(text);
  const rps = /Requests\/sec:\s+([\d.]+)/.exec(text);
  if (!requests || !rps) throw new Error(`wrk's report has no request count:\n${text}`);
  const socket = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(text);
  return {
    rps: Number(rps[1]),
    p50: percentile(text, '50'),
    p99: percentile(text, '99'),
    requests: Number(requests[1]),
    errors: socket ? socket.slice(1).reduce((n, count) => n + Number(count), 0) : 0,
    non2xx: Number(/Non-2xx or 3xx responses: (\d+)/.exec(text)?.[1] ?? 0),
  };
}

const UNIT_MS: Record<string, number> = { us: 0.001, ms: 1, s: 1000, m: 60_000 };

function percentile(text: string, which: string): number {
  const m = new RegExp(`^\\s*${which}(?:\\.0+)?%\\s+([\\d.]+)(us|ms|s|m)\\s*$`, 'm').exec(text);
  return m ? Number(m[1]) * UNIT_MS[m[2]] : Number.NaN;
}
