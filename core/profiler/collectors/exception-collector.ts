import { EXCEPTION_KEY } from '../../kernel/error-listener.js';
import type { ExceptionData } from '../profile.js';
import { redactException } from '../redact-log.js';
import type { CollectContext } from './collect-context.js';

/** The exception panel: the chain the error listener flattened, redacted; null when nothing was thrown. */
export function collectException({ request, secrets }: CollectContext): ExceptionData | null {
  const recorded = (request.extra.get(EXCEPTION_KEY) as ExceptionData | undefined) ?? null;
  return recorded && redactException(recorded, secrets);
}
