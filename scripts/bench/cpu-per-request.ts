// Server CPU time per request: the CPU a server process spends (user + system,
// from /proc/<pid>/stat) over a fixed number of requests, divided by that number.
// Unlike requests per second it barely moves when other processes share the cores.
import { readdirSync, readFileSync } from 'node:fs';
import autocannon from 'autocannon';
import { PROFILER_THREAD_NAME } from '../../core/profiler/thread-name.js';

const TICKS_PER_SECOND = 100;

/** CPU ms (user + system) by thread: the main thread (the event loop), the profiler worker, and the rest (compression, GC, libuv). */
export interface ThreadsCpuMs {
  main: number;
  profiler: number;
  other: number;
}

/** ms of CPU of each of the process's threads, grouped by what they do (they are told apart by the name core/profiler/thread-name.ts gives them). */
export function cpuByThreadMs(pid: number): ThreadsCpuMs {
  const total: ThreadsCpuMs = { main: 0, profiler: 0, other: 0 };
  for (const task of readdirSync(`/proc/${pid}/task`)) {
    let stat: string;
    try {
      stat = readFileSync(`/proc/${pid}/task/${task}/stat`, 'utf8');
    } catch {
      continue; // the thread ended between the listing and the read
    }
    const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ms = ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND;
    if (task === String(pid)) total.main += ms;
    else if (name === PROFILER_THREAD_NAME) total.profiler += ms;
    else total.other += ms;
  }
  return total;
}

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
export async function cpuPerRequest(
  pid: number,
  url: string,
  amount: number,
  warmup = Math.ceil(amount / 5),
): Promise<number> {
  await autocannon({ url, connections: 10, amount: warmup });
  const before = cpuMs(pid);
  await autocannon({ url, connections: 10, amount });
  return ((cpuMs(pid) - before) * 1000) / amount;
}
