/**
 * Collects lines and writes them together: a quiet server prints a request's
 * line at once, a loaded one makes one write per LINGER_MS for all the
 * requests answered meanwhile instead of a system call each.
 */
export interface LineBatcher {
  push(line: string): void;
  flush(): void;
}

/** how long lines wait for company after a write; no person reading a terminal sees it */
const LINGER_MS = 20;

export function lineBatcher(write: (text: string) => void): LineBatcher {
  let pending = '';
  let timer: NodeJS.Timeout | null = null;
  /** when the last write was made: a line arriving later than LINGER_MS after it goes out at once */
  let lastWrite = -Infinity;
  const flush = (): void => {
    if (timer !== null) clearTimeout(timer);
    timer = null;
    if (pending === '') return;
    const text = pending;
    pending = '';
    lastWrite = performance.now();
    write(text);
  };
  return {
    push(line) {
      pending += `${line}\n`;
      if (timer !== null) return;
      const wait = lastWrite + LINGER_MS - performance.now();
      if (wait <= 0) {
        // Still after the current turn of the event loop, so that a burst of lines shares it.
        timer = setTimeout(flush, 0);
        return;
      }
      timer = setTimeout(flush, wait);
    },
    flush,
  };
}
