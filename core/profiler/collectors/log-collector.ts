import type { Collectors } from '../profile.js';
import { redactLogRecord } from '../redact-log.js';
import type { CollectContext } from './collect-context.js';

/** The log panel: every record of the request, redacted, and the error and warning counts. */
export function collectLog({ request, secrets }: CollectContext): Collectors['log'] {
  const { log, attributes } = request;
  return { records: log.records.map((record) => redactLogRecord(record, secrets, attributes.route)), errors: log.errors, warnings: log.warnings };
}
