import { notifiedMessage } from '../../kernel/event-dispatcher.js';
import { NOTIFIED_REF, type NotifiedRef as CallRef } from '../notified-ref.js';
import type { LogRecord, Profile } from '../profile.js';

/**
 * What the store writes is the profile less what it can say again on reading:
 * each `Notified event "<event>" to listener "<listener>".` record (most of a
 * 200 profile's log) is kept as [event index, listener index, ms after the
 * profile's time, whole ms], pointing into the events panel, which holds both names.
 * Only the records the log collector marked as the dispatcher's own (NOTIFIED_REF) are kept so.
 */
type NotifiedRef = [event: number, listener: number, delay: number];
type StoredRecord = LogRecord | NotifiedRef;
type MarkedRecord = LogRecord & { [NOTIFIED_REF]?: CallRef };

/** The profile as written: the same object when nothing in it can be shortened. */
export function toStoredForm(profile: Profile): Profile {
  const records = profile.collectors.log.records as MarkedRecord[];
  const base = Math.floor(profile.time);
  let stored: StoredRecord[] | null = null;
  for (let r = 0; r < records.length; r++) {
    const record = records[r];
    const call = record[NOTIFIED_REF];
    if (call && !stored) stored = records.slice(0, r);
    if (stored) stored.push(call ? [call[0], call[1], record.time - base] : record);
  }
  if (!stored) return profile;
  return {
    ...profile,
    collectors: { ...profile.collectors, log: { ...profile.collectors.log, records: stored as LogRecord[] } },
  };
}

/** The profile as read back from its stored form (a profile written whole reads as it is). */
export function fromStoredForm(profile: Profile): Profile {
  const records = profile.collectors?.log?.records as StoredRecord[] | undefined;
  if (!Array.isArray(records)) return profile;
  const events = profile.collectors.events?.events ?? [];
  for (let r = 0; r < records.length; r++) {
    const ref = records[r];
    if (!Array.isArray(ref)) continue;
    const [e, l, delay] = ref;
    const event = events[e]?.name ?? '(unknown event)';
    const listener = events[e]?.listeners?.[l]?.listener ?? '(unknown listener)';
    records[r] = {
      time: Math.floor(profile.time) + delay,
      level: 'DEBUG',
      channel: 'event',
      message: notifiedMessage(event, listener),
      context: { event, listener },
    };
  }
  return profile;
}
