import type { ProfileSummary } from '../profile.js';

/** A summary as the index holds it: where its record is, and whether it was removed since. */
export interface IndexEntry extends ProfileSummary {
  segment: string;
  offset: number;
  length: number;
  /** the profile's place in its record's block */
  slot: number;
  dead: boolean;
  /** the order this process's index learnt of it (ProfileIndex.add) */
  arrival: number;
}

/** The store's one order: time, then token, so that every process sorts ties alike. */
export interface OrderKey {
  time: number;
  token: string;
}

export function compareKeys(a: OrderKey, b: OrderKey): number {
  return a.time - b.time || (a.token < b.token ? -1 : a.token > b.token ? 1 : 0);
}

/** Entries oldest first. Profiles arrive nearly in order, so inserting is an append but for a few steps back. */
export class TimeOrderedList {
  items: IndexEntry[] = [];
  /** live entries and, of them, the profiler's own requests: kept by ProfileIndex, so that a count need not walk */
  live = 0;
  profilers = 0;

  insert(entry: IndexEntry): void {
    const items = this.items;
    if (items.length === 0 || compareKeys(items[items.length - 1], entry) <= 0) {
      items.push(entry);
      return;
    }
    let lo = 0;
    let hi = items.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (compareKeys(items[mid], entry) <= 0) lo = mid + 1;
      else hi = mid;
    }
    items.splice(lo, 0, entry);
  }

  /** Position of the newest entry with time <= until; -1 when there is none. */
  lastAtOrBefore(until: number): number {
    let lo = 0;
    let hi = this.items.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.items[mid].time <= until) lo = mid + 1;
      else hi = mid;
    }
    return lo - 1;
  }

  /** How many entries, dead ones included, have a time in [since, until] (either bound left out: unbounded). */
  countBetween(since: number | undefined, until: number | undefined): number {
    const last = until === undefined ? this.items.length - 1 : this.lastAtOrBefore(until);
    if (since === undefined) return last + 1;
    let lo = 0;
    let hi = this.items.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.items[mid].time < since) lo = mid + 1;
      else hi = mid;
    }
    return Math.max(0, last + 1 - lo);
  }

  compact(): void {
    this.items = this.items.filter((entry) => !entry.dead);
  }
}

export interface TimeRange {
  since?: number;
  until?: number;
}

/**
 * Calls `visit` with the live entries of all lists, newest first across them,
 * inside the time range, until it returns true. Costs O(visited · log lists).
 */
export function visitNewestFirst(
  lists: readonly TimeOrderedList[],
  range: TimeRange,
  visit: (entry: IndexEntry) => boolean,
): void {
  const since = range.since ?? -Infinity;
  const start = (list: TimeOrderedList) =>
    range.until === undefined ? list.items.length - 1 : list.lastAtOrBefore(range.until);
  if (lists.length === 1) {
    const items = lists[0].items;
    for (let i = start(lists[0]); i >= 0; i--) {
      const entry = items[i];
      if (entry.time < since) return;
      if (!entry.dead && visit(entry)) return;
    }
    return;
  }
  const heap: { items: IndexEntry[]; at: number }[] = [];
  for (const list of lists) {
    const at = start(list);
    if (at >= 0) heapPush(heap, { items: list.items, at });
  }
  while (heap.length > 0) {
    const top = heap[0];
    const entry = top.items[top.at];
    if (entry.time < since) return;
    top.at--;
    if (top.at < 0) heapPop(heap);
    else siftDown(heap, 0);
    if (!entry.dead && visit(entry)) return;
  }
}

type Cursor = { items: IndexEntry[]; at: number };
const newer = (a: Cursor, b: Cursor) => compareKeys(a.items[a.at], b.items[b.at]) > 0;

function heapPush(heap: Cursor[], cursor: Cursor): void {
  heap.push(cursor);
  let i = heap.length - 1;
  while (i > 0) {
    const parent = (i - 1) >> 1;
    if (!newer(heap[i], heap[parent])) break;
    [heap[i], heap[parent]] = [heap[parent], heap[i]];
    i = parent;
  }
}

function heapPop(heap: Cursor[]): void {
  const last = heap.pop()!;
  if (heap.length > 0) {
    heap[0] = last;
    siftDown(heap, 0);
  }
}

function siftDown(heap: Cursor[], i: number): void {
  for (;;) {
    const left = 2 * i + 1;
    const right = left + 1;
    let best = i;
    if (left < heap.length && newer(heap[left], heap[best])) best = left;
    if (right < heap.length && newer(heap[right], heap[best])) best = right;
    if (best === i) return;
    [heap[i], heap[best]] = [heap[best], heap[i]];
    i = best;
  }
}
