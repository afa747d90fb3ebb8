import { STATUS_CODES } from 'node:http';
import { AppError } from '../core/errors.js';

/** `404`, `4xx`: a status, or a class of them, that `--allow-status` accepts. */
const STATUS_PATTERN = /^[1-5](?:\d\d|xx)$/i;

/** commander's collector for `--allow-status`, repeatable and comma-separated (`404,410`). */
export function collectAllowedStatus(value: string, previous: string[]): string[] {
  const statuses = value
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
  const bad = statuses.find((s) => !STATUS_PATTERN.test(s));
  if (bad !== undefined || statuses.length === 0) {
    throw new AppError(
      'APP_ERR_CLI_USAGE',
      `Invalid --allow-status "${bad ?? value}": expected a status (404) or a class (4xx).`,
    );
  }
  return [...previous, ...statuses.map((s) => s.toLowerCase())];
}

/** A snapshot records a page that answered (2xx, 3xx); another status only when `--allow-status` names it or its class. */
export function statusAccepted(status: number, allowed: readonly string[]): boolean {
  if (status >= 200 && status < 400) return true;
  return allowed.includes(String(status)) || allowed.includes(`${Math.floor(status / 100)}xx`);
}

/** "404 Not Found" */
export function describeStatus(status: number): string {
  const text = STATUS_CODES[status];
  return text ? `${status} ${text}` : String(status);
}

/** The summary line under a run that met statuses it was not told to accept, and the flags that would. */
export function refusedStatusHint(statuses: readonly number[], pages: number): string {
  const distinct = [...new Set(statuses)].sort((a, b) => a - b);
  const flags = distinct.map((s) => `--allow-status ${s}`).join(' ');
  const count = statuses.length;
  return (
    `${count} of ${pages} ${pages === 1 ? 'page' : 'pages'} answered ${distinct.join(', ')} and ${count === 1 ? 'was' : 'were'} not saved: ` +
    `a snapshot records 2xx and 3xx answers; if ${count === 1 ? 'this status is' : 'these statuses are'} intended, run again with ${flags}.\n`
  );
}
