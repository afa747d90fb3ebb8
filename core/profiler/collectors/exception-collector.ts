import { serialiseOnce } from '../../debug/request-recording.js';
import type { ExceptionData } from '../profile.js';
import { redactException, SecretValues } from '../../redaction/index.js';
import type { CollectContext } from './collect-context.js';

/**
 * The panels of exceptions recorded again and again (the worker reads the same exception text into
 * the same object, request-record.ts), for requests that carried no secret value: built once, JSON
 * text included (serialiseOnce), which the stored form splices in as it is. Null: the exception has
 * a secret of its own (its headers), which the request's later panels are scrubbed of.
 */
const builtOnce = new WeakMap<ExceptionData, ExceptionData | null>();

/** The exception panel: the chain the error listener flattened, redacted; null when nothing was thrown. */
export function collectException({ trace, secrets }: CollectContext): ExceptionData | null {
  const recorded = trace.exception;
  if (!recorded) return null;
  if (secrets.size > 0) return redactException(recorded, secrets);
  let built = builtOnce.get(recorded);
  if (built === undefined) {
    const found = new SecretValues();
    const panel = redactException(recorded, found);
    builtOnce.set(recorded, (built = found.size === 0 ? serialiseOnce(panel) : null));
  }
  return built ?? redactException(recorded, secrets);
}
