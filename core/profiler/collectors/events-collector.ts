import type { EventsData } from '../profile.js';
import type { CollectContext } from './collect-context.js';

/** The events panel: each dispatched event with its listener calls, in order. */
export function collectEvents({ trace }: CollectContext): EventsData {
  return { events: trace.events.slice() };
}
