import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

const RAISED = 'APPKERNEL_TEST_RAISED_NOFILE';

/**
 * Makes sure this test process may open `needed` files. When its soft limit is lower but the hard
 * limit allows it, the test file is run again in a shell that raised the soft limit, and this
 * process exits with that run's status; otherwise it stops with a message saying what is missing.
 */
export function needOpenFiles(needed: number): void {
  const [soft, hard] = openFileLimits();
  if (soft >= needed) return;
  if (process.env[RAISED] !== undefined || hard < needed) {
    throw new Error(
      `this test needs ${needed} open files; the limit is ${soft} (hard ${Number.isFinite(hard) ? hard : 'unlimited'}): raise it with ulimit -n ${needed}`,
    );
  }
  const run = spawnSync(
    'sh',
    ['-c', `ulimit -n ${needed} && exec "$0" "$@"`, process.execPath, ...process.execArgv, process.argv[1]],
    {
      stdio: 'inherit',
      env: { ...process.env, [RAISED]: String(needed) },
    },
  );
  process.exit(run.status ?? 1);
}

/** The soft and hard RLIMIT_NOFILE; Infinity for unlimited or where /proc/self/limits is not there. */
function openFileLimits(): [number, number] {
  let text = '';
  try {
    text = readFileSync('/proc/self/limits', 'utf8');
  } catch {
    return [Infinity, Infinity];
  }
  const m = /^Max open files\s+(\S+)\s+(\S+)/m.exec(text);
  const value = (v: string | undefined): number => (v === undefined || v === 'unlimited' ? Infinity : Number(v));
  return [value(m?.[1]), value(m?.[2])];
}
