import { NOTIFIED_REF, type NotifiedRef } from '../notified-ref.js';
import type { Collectors, LogRecord } from '../profile.js';
import { redactEventRecord } from '../redact-event-record.js';
import type { CollectContext } from './collect-context.js';

type MarkedRecord = LogRecord & { [NOTIFIED_REF]?: NotifiedRef };

/**
 * The log panel: every record of the request, redacted, and the error and warning counts. A
 * `Notified event` record keeps its place in the events panel (NOTIFIED_REF), for the store.
 */
export function collectLog({ request, trace, secrets }: CollectContext): Collectors['log'] {
  const { log } = trace;
  const route = request.attributes.route;
  const records = (log.records as readonly MarkedRecord[]).map((record) => {
    const copy: MarkedRecord = redactEventRecord(record, secrets, route);
    const ref = record[NOTIFIED_REF];
    if (ref) copy[NOTIFIED_REF] = ref;
    return copy;
  });
  return { records, errors: log.errors, warnings: log.warnings };
}
