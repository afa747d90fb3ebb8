// The servers on one core and the load generator on another, as issue figures are taken: a server's
// threads (main, profiler worker, compression, GC) then compete for one core as they would on a
// loaded machine, and the generator never steals from them. Linux with taskset and 2+ cores only;
// BENCH_PIN=0 turns it off.
import { execFileSync } from 'node:child_process';
import { cpus } from 'node:os';

const SERVER_CORE = '0';
const GENERATOR_CORE = '1';

function canPin(): boolean {
  if (process.env.BENCH_PIN === '0' || cpus().length < 2) return false;
  try {
    execFileSync('taskset', ['-p', String(process.pid)], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

export const PINNED = canPin();

/** `command` run on the servers' core (taskset execs it: the pid stays the server's). */
export function onServerCore(command: string[]): string[] {
  return PINNED ? ['taskset', '-c', SERVER_CORE, ...command] : command;
}

/** Moves this process (the load generator) and its threads to the generator's core. */
export function pinThisProcessToGeneratorCore(): void {
  if (PINNED) execFileSync('taskset', ['-a', '-p', '-c', GENERATOR_CORE, String(process.pid)], { stdio: 'ignore' });
}
