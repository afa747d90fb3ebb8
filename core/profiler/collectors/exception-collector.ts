import type { ExceptionData } from '../profile.js';
import { redactException } from '../redact-log.js';
import type { CollectContext } from './collect-context.js';

/** The exception panel: the chain the error listener flattened, redacted; null when nothing was thrown. */
export function collectException({ trace, secrets }: CollectContext): ExceptionData | null {
  const recorded = trace.exception;
  return recorded && redactException(recorded, secrets);
}
