import type { LogRecord } from '../core/log/log-record.js';
import type { Profile, ProfileSummary } from '../core/profiler/profile.js';
import type { PanelDefinition } from '../panels/panel-definition.js';

/** A point in time as `--json` prints it: ISO 8601 in UTC with milliseconds, never fractional epoch milliseconds. */
export function isoTime(epochMs: number): string {
  return new Date(epochMs).toISOString();
}

type WithIsoTime<T> = Omit<T, 'time'> & { time: string };

function logForJson(log: Profile['collectors']['log']) {
  return { ...log, records: log.records.map((r): WithIsoTime<LogRecord> => ({ ...r, time: isoTime(r.time) })) };
}

/** A list row for `--json`. */
export function summaryForJson(row: ProfileSummary): WithIsoTime<ProfileSummary> {
  return { ...row, time: isoTime(row.time) };
}

/** A stored profile for `--json`: its time and its log records' times as ISO strings, the rest as stored. */
export function profileForJson(profile: Profile) {
  return {
    ...profile,
    time: isoTime(profile.time),
    collectors: { ...profile.collectors, log: logForJson(profile.collectors.log) },
  };
}

/** One panel's data for `show --panel X --json`, with the profile's token and time to say whose it is. */
export function panelForJson(profile: Profile, panel: PanelDefinition) {
  const data = panel.data(profile);
  return {
    token: profile.token,
    time: isoTime(profile.time),
    panel: panel.name,
    data: data === profile.collectors.log ? logForJson(profile.collectors.log) : data,
  };
}
