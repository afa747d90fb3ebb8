import { STOPWATCH_COLLECTOR, type Span } from '../../debug/stopwatch.js';
import type { MemoryData, TimeData } from '../profile.js';
import { redactText } from '../../redaction/index.js';
import { appEntries } from './app-entries.js';
import type { CollectContext } from './collect-context.js';

export const MEMORY_COLLECTOR = 'memory';

/** The performance panel: the duration, the kernel's phases, the app's stopwatch spans and the memory at the end. */
export function collectTime({ trace, duration, entries, secrets }: CollectContext): TimeData {
  const spans = (appEntries(entries, STOPWATCH_COLLECTOR) as Span[]).map((span) => ({
    name: secrets.scrub(redactText(String(span.name))),
    start: Number(span.start) || 0,
    duration: typeof span.duration === 'number' ? span.duration : null,
  }));
  const memory = (appEntries(entries, MEMORY_COLLECTOR)[0] as MemoryData | undefined) ?? null;
  return { duration, phases: trace.phases.slice(), spans, memory };
}
