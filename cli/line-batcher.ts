/**
 * Collects lines and writes them together once per turn of the event loop:
 * a quiet server prints each request at once, a loaded one makes one write
 * for many requests instead of a system call each.
 */
export interface LineBatcher {
  push(line: string): void;
  flush(): void;
}

export function lineBatcher(write: (text: string) => void): LineBatcher {
  let pending = '';
  let scheduled = false;
  const flush = (): void => {
    scheduled = false;
    if (pending === '') return;
    const text = pending;
    pending = '';
    write(text);
  };
  return {
    push(line) {
      pending += `${line}\n`;
      if (scheduled) return;
      scheduled = true;
      setImmediate(flush);
    },
    flush,
  };
}
