export interface WarningSummary {
  warn(message: string): void;
  /** tells the warnings still counted, now (before the output closes) */
  flush(): void;
}

/**
 * Passes the first warning on at once; those that follow within `intervalMs` are only
 * counted, and told in one line when the interval ends, so that a store failing on every
 * write (a folder cleared under load, a full disk) cannot flood the terminal.
 */
export function summarizeWarnings(out: (message: string) => void, intervalMs = 5_000): WarningSummary {
  let timer: NodeJS.Timeout | null = null;
  let count = 0;
  let first = '';
  const tell = (): void => {
    const seconds = intervalMs >= 1000 ? `${intervalMs / 1000} s` : `${intervalMs} ms`;
    out(`${count} more profile store warning${count === 1 ? '' : 's'} in the last ${seconds}, the first: ${first}`);
    count = 0;
  };
  const end = (): void => {
    timer = null;
    if (count === 0) return;
    tell();
    timer = setTimeout(end, intervalMs).unref();
  };
  return {
    warn(message) {
      if (timer === null) {
        out(message);
        timer = setTimeout(end, intervalMs).unref();
      } else if (count++ === 0) {
        first = message;
      }
    },
    flush() {
      if (timer) clearTimeout(timer);
      timer = null;
      if (count > 0) tell();
    },
  };
}
