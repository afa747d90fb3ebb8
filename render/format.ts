/**
 * Formatting shared by the pages. Times are shown in UTC, from the stored epoch
 * milliseconds: a render function never reads the clock or the machine's time
 * zone, so the same profile renders the same page anywhere, months later.
 */

const pad = (n: number): string => (n < 10 ? `0${n}` : String(n));

/** `HH:MM:SS` (UTC) of an epoch-ms time; `--:--:--` when it is not a number. */
export function formatClock(ms: number): string {
  if (!Number.isFinite(ms)) return '--:--:--';
  const seconds = ((Math.floor(ms / 1000) % 86_400) + 86_400) % 86_400;
  return `${pad(Math.floor(seconds / 3600))}:${pad(Math.floor(seconds / 60) % 60)}:${pad(seconds % 60)}`;
}

/** `HH:MM:SS.mmm` (UTC) of an epoch-ms time; `--:--:--.---` when it is not a number. */
export function formatClockMs(ms: number): string {
  if (!Number.isFinite(ms)) return '--:--:--.---';
  const millis = ((Math.floor(ms) % 1000) + 1000) % 1000;
  return `${formatClock(ms)}.${String(millis).padStart(3, '0')}`;
}

/** `YYYY-MM-DD HH:MM:SS` (UTC). */
export function formatDateTime(ms: number): string {
  const iso = isoSeconds(ms);
  return iso ? iso.replace('T', ' ') : 'unknown time';
}

/** `YYYY-MM-DDTHH:MM:SS` (UTC), for `<time datetime>` and datetime-local inputs; '' when invalid. */
export function isoSeconds(ms: number): string {
  const date = new Date(ms);
  return Number.isNaN(date.getTime()) ? '' : date.toISOString().slice(0, 19);
}

/** `0.42 ms`, `12.3 ms`, `1204 ms`. */
export function formatMs(ms: number): string {
  if (!Number.isFinite(ms)) return '? ms';
  if (ms < 1) return `${ms.toFixed(2)} ms`;
  if (ms < 100) return `${ms.toFixed(1)} ms`;
  return `${Math.round(ms)} ms`;
}

export function formatBytes(bytes: number): string {
  if (!Number.isFinite(bytes)) return '?';
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/** Pretty JSON for context objects and non-string values; never throws. */
export function formatJson(value: unknown): string {
  try {
    return JSON.stringify(value, (_key, v: unknown) => (typeof v === 'bigint' ? `${v}n` : v), 2) ?? String(value);
  } catch {
    return '[value that cannot be shown as JSON]';
  }
}

/** `s2`…`s5`: the CSS class of a status family. */
export function statusClass(status: number): string {
  const family = Math.floor(status / 100);
  return family >= 1 && family <= 5 ? `s${family}` : 's0';
}

export function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

/** A profile dated more than this ahead of the reader's clock is shown with a note. */
const FUTURE_SLACK_MS = 60_000;

/**
 * `dated 5 min ahead of this server's clock` when `time` is more than a minute after `now`, else
 * null: the recording server's clock is wrong, or the row did not come from an appkernel.
 */
export function futureNote(time: number, now: number | undefined): string | null {
  if (now === undefined || !(time - now > FUTURE_SLACK_MS)) return null;
  const minutes = (time - now) / 60_000;
  const ahead =
    minutes < 120
      ? `${Math.round(minutes)} min`
      : minutes < 2 * 1440
        ? `${Math.round(minutes / 60)} h`
        : minutes < 730 * 1440
          ? `${Math.round(minutes / 1440)} days`
          : `${Math.round(minutes / 525_960)} years`;
  return `dated ${ahead} ahead of this clock`;
}
