/** Times are shown in UTC so that the same profile prints the same text on every machine; a record without one says so. */
export function formatDateTime(epochMs: number): string {
  if (!Number.isFinite(epochMs)) return 'unknown time';
  return `${new Date(epochMs).toISOString().slice(0, 19).replace('T', ' ')} UTC`;
}

/** "14:03:27" for a time of the same UTC day as `now`, else "11-22 14:03" (UTC, as every time shown). */
export function formatShortTime(epochMs: number, now: number): string {
  if (!Number.isFinite(epochMs)) return '--:--:--';
  const iso = new Date(epochMs).toISOString();
  return iso.slice(0, 10) === new Date(now).toISOString().slice(0, 10)
    ? iso.slice(11, 19)
    : `${iso.slice(5, 10)} ${iso.slice(11, 16)}`;
}

/** `HH:MM:SS` (UTC); `--:--:--` for a record without a time. */
export function formatClock(epochMs: number): string {
  if (!Number.isFinite(epochMs)) return '--:--:--';
  return new Date(epochMs).toISOString().slice(11, 19);
}

export function formatMs(ms: number, digits = 1): string {
  if (!Number.isFinite(ms)) return '? ms';
  return `${ms.toFixed(digits)} ms`;
}

export function plural(count: number, one: string, many = `${one}s`): string {
  return `${count} ${count === 1 ? one : many}`;
}
