import type { TimeData } from '../profile.js';
import type { CollectContext } from './collect-context.js';

/** The performance panel: the duration and the kernel's phases. */
export function collectTime({ trace, duration }: CollectContext): TimeData {
  return { duration, phases: trace.phases.slice() };
}
