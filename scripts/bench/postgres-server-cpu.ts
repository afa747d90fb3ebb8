// CPU time of a PostgreSQL server on this machine (postmaster and every process it
// started, the backends serving the stores included), from /proc: the cost a
// database on the same cores takes from the app it stores profiles for.
import { readdirSync, readFileSync } from 'node:fs';

const TICK_MS = 10;

function statFields(pid: number): string[] | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  } catch {
    return null;
  }
}

function runMs(pid: number): number {
  try {
    return Number(readFileSync(`/proc/${pid}/schedstat`, 'utf8').split(' ')[0]) / 1e6;
  } catch {
    return 0;
  }
}

/** The postmaster listening on `port` (its command line says `-p <port>`), or null. */
export function postmasterPid(port: number): number | null {
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const args = readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0');
      const p = args.indexOf('-p');
      if (p > 0 && args[p + 1] === String(port) && /postgres$/.test(args[0])) return Number(entry);
    } catch {
      // Gone meanwhile.
    }
  }
  return null;
}

/**
 * ms of CPU the server has used so far: its live processes to the ns, plus the processes that
 * ended (backends of closed connections), which the postmaster's waited-for children count in ticks.
 */
export function postgresServerMs(postmaster: number): number {
  let ms = runMs(postmaster);
  const own = statFields(postmaster);
  if (own) ms += (Number(own[13]) + Number(own[14])) * TICK_MS;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const fields = statFields(Number(entry));
    if (fields && Number(fields[1]) === postmaster) ms += runMs(Number(entry));
  }
  return ms;
}
