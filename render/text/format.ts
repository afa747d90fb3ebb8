/** Times are shown in UTC so that the same profile prints the same text on every machine. */
export function formatDateTime(epochMs: number): string {
  return `${new Date(epochMs).toISOString().slice(0, 19).replace('T', ' ')} UTC`;
}

export function formatClock(epochMs: number): string {
  return new Date(epochMs).toISOString().slice(11, 19);
}

export function formatMs(ms: number, digits = 1): string {
  return `${ms.toFixed(digits)} ms`;
}

export function plural(count: number, one: string, many = `${one}s`): string {
  return `${count} ${count === 1 ? one : many}`;
}
