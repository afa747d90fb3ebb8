import type { TimeData } from '../profile.js';
import type { CollectContext } from './collect-context.js';

/** The performance panel: the duration and the kernel's phases. */
export function collectTime({ request, duration }: CollectContext): TimeData {
  return { duration, phases: request.phases.slice() };
}
