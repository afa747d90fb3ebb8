// Server CPU time per request: the CPU a server process spends (user + system,
// from /proc/<pid>/stat) over a fixed number of requests, divided by that number.
// Unlike requests per second it barely moves when other processes share the cores.
import { readdirSync, readFileSync } from 'node:fs';
import autocannon from 'autocannon';

const TICKS_PER_SECOND = 100;

/** ms of CPU (user + system) of the process, all its threads; with `mainThreadOnly`, of its main thread (the event loop) alone. */
export function cpuMs(pid: number, mainThreadOnly = false): number {
  const stat = readFileSync(mainThreadOnly ? `/proc/${pid}/task/${pid}/stat` : `/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND;
}

/** ms the process's main thread has run, to the ns: /proc's stat counts in 10 ms ticks, too coarse for short batches. */
export function mainThreadMs(pid: number): number {
  return Number(readFileSync(`/proc/${pid}/task/${pid}/schedstat`, 'utf8').split(' ')[0]) / 1e6;
}

/** ms every thread of the process has run, to the ns (the sum of its tasks' schedstat). */
export function allThreadsMs(pid: number): number {
  let ns = 0;
  for (const task of readdirSync(`/proc/${pid}/task`)) {
    try {
      ns += Number(readFileSync(`/proc/${pid}/task/${task}/schedstat`, 'utf8').split(' ')[0]);
    } catch {
      // the thread ended between the listing and the read
    }
  }
  return ns / 1e6;
}

/** µs of server CPU per request over `amount` requests to `url`, after `warmup` requests. */
export async function cpuPerRequest(pid: number, url: string, amount: number, warmup = Math.ceil(amount / 5)): Promise<number> {
  await autocannon({ url, connections: 10, amount: warmup });
  const before = cpuMs(pid);
  await autocannon({ url, connections: 10, amount });
  return ((cpuMs(pid) - before) * 1000) / amount;
}
