import { serialiseOnce } from '../debug/request-recording.js';
import type { LogRecord } from './profile.js';
import { redactLogRecord, type SecretValues } from '../redaction/index.js';
import { showsRedaction } from './shows-redaction.js';

interface Redacted {
  level: LogRecord['level'];
  channel: string;
  message: string;
  /** what the record's message and context became: the same for every record of this source */
  clean: LogRecord;
  /** whether `clean` holds REDACTED anywhere, once asked */
  shows?: boolean;
}

/** Bounded: the memo is emptied when full (an app dispatching events with ever new names). */
const MAX_ENTRIES = 2048;
/** records kept per event and listener pair: an app's own records of that shape are redacted as usual beyond these */
const PER_PAIR = 4;
const memo = new Map<string, Map<string, Redacted[]>>();
let size = 0;

/**
 * redactLogRecord() for the dispatcher's own records (`Notified event …`, `Listener … stopped
 * propagation …`), whose context is exactly { event, listener }: most of a profile's log, the same
 * few from one request to the next. Their stored copy depends only on their level, channel, message
 * and those two names when the request carried no secret value, so it is made once per source and
 * the copy for each record shares its message and context. Any other record is redacted as usual.
 */
export function redactEventRecord(record: LogRecord, secrets: SecretValues, route: string | null): LogRecord {
  const known = knownSource(record, secrets, route);
  if (known === null) return redactLogRecord(record, secrets, route);
  const { clean } = known;
  return {
    time: record.time,
    level: clean.level,
    channel: clean.channel,
    message: clean.message,
    context: clean.context,
  };
}

/**
 * Whether the stored copy of `record` (redactEventRecord) holds REDACTED anywhere: asked once per
 * source for the dispatcher's own records, which is what lets the profiler worker store a request's
 * record without building its log panel (handoff/build-batch.ts).
 */
export function eventRecordShowsRedaction(record: LogRecord, secrets: SecretValues, route: string | null): boolean {
  const known = knownSource(record, secrets, route);
  if (known === null) return showsRedaction(redactLogRecord(record, secrets, route));
  known.shows ??= showsRedaction(known.clean);
  return known.shows;
}

/** The memo of the source of `record` (made if need be), or null when it is redacted as any record is. */
function knownSource(record: LogRecord, secrets: SecretValues, route: string | null): Redacted | null {
  const context = record.context as { event?: unknown; listener?: unknown } | null;
  if (secrets.size > 0 || typeof context !== 'object' || context === null) return null;
  if (shared.has(context)) return sharedSource(record, context, secrets, route);
  const { event, listener } = context;
  if (typeof event !== 'string' || typeof listener !== 'string' || !onlyEventAndListener(context)) return null;
  let byListener = memo.get(event);
  if (byListener === undefined) memo.set(event, (byListener = new Map()));
  // A few records per pair: "Notified event …" and "Listener … stopped propagation …".
  let sources = byListener.get(listener);
  if (sources === undefined) byListener.set(listener, (sources = []));
  let known = sources.find(
    (source) => source.message === record.message && source.level === record.level && source.channel === record.channel,
  );
  if (known === undefined) {
    if (sources.length >= PER_PAIR) return null;
    if (++size > MAX_ENTRIES) {
      memo.clear();
      size = 1;
      memo.set(event, (byListener = new Map()));
      byListener.set(listener, (sources = []));
    }
    const clean = redactLogRecord(record, secrets, route);
    // Its context is shared by every copy: its JSON is made once too (the stored form splices it in).
    if (typeof clean.context === 'object' && clean.context !== null) serialiseOnce(clean.context);
    known = { level: record.level, channel: record.channel, message: record.message, clean };
    sources.push(known);
  }
  return known;
}

function onlyEventAndListener(context: object): boolean {
  let count = 0;
  for (const key in context) {
    if (key !== 'event' && key !== 'listener') return false;
    count++;
  }
  return count === 2;
}

/** Contexts the reader gives again, unchanged, to every record of the same facts (the "Matched route" record). */
const shared = new WeakSet<object>();
const redactedShared = new WeakMap<object, Redacted & { route: string | null }>();

/**
 * Marks `context` as never changed once made, and given again to records of the same facts: their
 * stored copy, when the request carried no secret value, is then made once (redactEventRecord).
 */
export function shareContext<T extends object>(context: T): T {
  shared.add(context);
  return context;
}

function sharedSource(record: LogRecord, context: object, secrets: SecretValues, route: string | null): Redacted {
  let known = redactedShared.get(context);
  if (
    known === undefined ||
    known.message !== record.message ||
    known.level !== record.level ||
    known.channel !== record.channel ||
    known.route !== route
  ) {
    const clean = redactLogRecord(record, secrets, route);
    if (typeof clean.context === 'object' && clean.context !== null) serialiseOnce(clean.context);
    redactedShared.set(
      context,
      (known = { level: record.level, channel: record.channel, message: record.message, route, clean }),
    );
  }
  return known;
}
