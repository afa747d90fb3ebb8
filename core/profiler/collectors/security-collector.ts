import type { SecurityData } from '../profile.js';
import { redactText } from '../../redaction/index.js';
import type { CollectContext } from './collect-context.js';

/** The security panel: the firewall's decision, its message redacted. */
export function collectSecurity({ trace, secrets }: CollectContext): SecurityData {
  const security = trace.security ?? { decision: 'none', rule: null, message: null };
  return security.message === null ? security : { ...security, message: secrets.scrub(redactText(security.message)) };
}
