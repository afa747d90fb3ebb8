export interface RetentionLimits {
  maxProfiles: number;
  maxBytes: number;
  maxAgeMs: number;
}

/** Keeps a busy dev box's store near 20 to 40 MB (10,000 profiles of 2 to 4 KB), never above 200 MB. */
export const DEFAULT_RETENTION: RetentionLimits = {
  maxProfiles: 10_000,
  maxBytes: 200 * 1024 * 1024,
  maxAgeMs: 7 * 24 * 60 * 60 * 1000,
};

/**
 * How full a segment gets before the writer starts the next one. Retention
 * drops whole segments, so a segment is at most a sixteenth of each bound: the
 * store keeps between 15/16 of a bound and the bound itself.
 */
export function segmentCapacity(limits: RetentionLimits): { profiles: number; bytes: number } {
  return {
    profiles: Math.max(1, Math.min(1000, Math.ceil(limits.maxProfiles / 16))),
    bytes: Math.max(16 * 1024, Math.min(4 * 1024 * 1024, Math.floor(limits.maxBytes / 16))),
  };
}

export interface SegmentUsage {
  base: string;
  profiles: number;
  bytes: number;
  /** newest profile time, -Infinity when empty */
  newest: number;
  /** false for a segment a writer still appends to */
  droppable: boolean;
}

/** Given the segments oldest first: the oldest ones to drop while the store is over a bound or they are all older than maxAgeMs. */
export function segmentsToDrop(usage: readonly SegmentUsage[], limits: RetentionLimits, now: number): string[] {
  let profiles = usage.reduce((n, s) => n + s.profiles, 0);
  let bytes = usage.reduce((n, s) => n + s.bytes, 0);
  const drop: string[] = [];
  for (const segment of usage) {
    const expired = segment.newest < now - limits.maxAgeMs;
    if (!expired && profiles <= limits.maxProfiles && bytes <= limits.maxBytes) break;
    if (!segment.droppable) continue;
    drop.push(segment.base);
    profiles -= segment.profiles;
    bytes -= segment.bytes;
  }
  return drop;
}
