import type { ProfileSummary, SearchQuery } from '../profile.js';
import { isProfilerUrl, methodMatcher, statusMatcher, summaryFilter } from './summary-filter.js';
import { compareKeys, TimeOrderedList, visitNewestFirst, type IndexEntry, type OrderKey } from './time-ordered-list.js';
import { TokenBits, tokenNumber } from './token-bits.js';

interface SegmentEntries {
  entries: IndexEntry[];
  live: number;
  newest: number;
}

interface Posting {
  /** the one copy of the value every entry of this posting shares */
  value: string;
  list: TimeOrderedList;
  /** a URL posting: whether its URL is the profiler's own */
  profiler: boolean;
}

/** A posting set is worth walking instead of the whole list only when it is this much smaller. */
const SELECTIVE = 4;
/** the most tokens a token prefix search looks up one by one (a prefix of 3 digits leaves 4,096) */
const MAX_TOKEN_RANGE = 4_096;

/**
 * Every stored profile's summary in memory, newest first for the list, with
 * postings by status, method, IP and URL so that a filtered search walks the
 * matching profiles only, not the whole store. Removed entries are marked dead
 * and compacted away in bulk.
 */
export class ProfileIndex {
  /**
   * An index that lists nothing: the index of a store's writer in a thread that serves no reads (the
   * profiler worker's), whose retention needs each segment's profiles and newest time, and no more.
   * It keeps no entry, so it neither finds a token nor tells a token met again from a new one; a prune
   * cutoff empties a segment wholly older than it, and leaves one it cuts through counted whole.
   */
  readonly #countsOnly: boolean;
  #all = new TimeOrderedList();
  /** the entries of #all killed since the last compaction, and the profiler's own requests (live or killed) and those of them killed: counts by time range */
  #killed = new TimeOrderedList();
  #profilerEntries = new TimeOrderedList();
  #killedProfilers = new TimeOrderedList();
  /** every entry in the order it was added: the store's arrival order as this process saw it */
  #arrived: IndexEntry[] = [];
  #arrivals = 0;
  #byToken = new Map<string, IndexEntry>();
  /** the valid tokens of #byToken again, for has(): a new token is asked for at every request */
  #tokenBits = new TokenBits();
  #bySegment = new Map<string, SegmentEntries>();
  #byStatus = new Map<number, TimeOrderedList>();
  #byMethod = new Map<string, Posting>();
  #byIp = new Map<string, Posting>();
  #byUrl = new Map<string, Posting>();
  /** live entries and, of them, the profiler's own, by status and method together (`404 GET`): a page asks for those two at once */
  #byStatusAndMethod = new Map<string, { status: number; method: string; live: number; profilers: number }>();
  /** one copy of each route name */
  #routes = new Map<string, string>();
  #live = 0;
  #dead = 0;
  /** live entries whose token is not of the generated form (6 hexadecimal digits): #tokenBits leaves them out */
  #oddTokens = 0;
  #cutoff: OrderKey | null = null;

  constructor(options: { countsOnly?: boolean } = {}) {
    this.#countsOnly = options.countsOnly ?? false;
  }

  get countsOnly(): boolean {
    return this.#countsOnly;
  }

  get size(): number {
    return this.#live;
  }

  get(token: string): IndexEntry | undefined {
    return this.#byToken.get(token);
  }

  has(token: string): boolean {
    const n = tokenNumber(token);
    return n < 0 ? this.#byToken.has(token) : this.#tokenBits.has(n);
  }

  /** Adds a record's summary; null when an exact prune removed it already. A token met again replaces the older entry. */
  add(summary: ProfileSummary, segment: string, offset: number, length: number, slot = 0): IndexEntry | null {
    if (this.#cutoff && compareKeys(summary, this.#cutoff) < 0) return null;
    if (this.#countsOnly) {
      this.#inSegment(segment, summary.time).live++;
      this.#live++;
      return null;
    }
    const existing = this.#byToken.get(summary.token);
    if (existing) {
      if (existing.segment === segment && existing.offset === offset && existing.slot === slot) return existing;
      this.#kill(existing);
    }
    const method = posting(this.#byMethod, summary.method);
    const ip = posting(this.#byIp, summary.ip);
    const url = posting(this.#byUrl, summary.url);
    const entry: IndexEntry = {
      token: summary.token,
      status: summary.status,
      ip: ip.value,
      method: method.value,
      url: url.value,
      time: summary.time,
      duration: summary.duration,
      route: this.#route(summary.route),
      segment,
      offset,
      length,
      slot,
      dead: false,
      arrival: ++this.#arrivals,
    };
    this.#all.insert(entry);
    this.#arrived.push(entry);
    let status = this.#byStatus.get(entry.status);
    if (!status) this.#byStatus.set(entry.status, (status = new TimeOrderedList()));
    status.insert(entry);
    method.list.insert(entry);
    ip.list.insert(entry);
    url.list.insert(entry);
    for (const list of [this.#all, status, method.list, ip.list, url.list, this.#statusAndMethod(entry)]) {
      list.live++;
      if (url.profiler) list.profilers++;
    }
    if (url.profiler) this.#profilerEntries.insert(entry);
    this.#byToken.set(entry.token, entry);
    const n = tokenNumber(entry.token);
    if (n >= 0) this.#tokenBits.add(n);
    else this.#oddTokens++;
    const inSegment = this.#inSegment(segment, entry.time);
    inSegment.entries.push(entry);
    inSegment.live++;
    this.#live++;
    return entry;
  }

  #inSegment(segment: string, time: number): SegmentEntries {
    let inSegment = this.#bySegment.get(segment);
    if (!inSegment) this.#bySegment.set(segment, (inSegment = { entries: [], live: 0, newest: -Infinity }));
    if (time > inSegment.newest) inSegment.newest = time;
    return inSegment;
  }

  /** Live entries of a segment. */
  countIn(segment: string): number {
    return this.#bySegment.get(segment)?.live ?? 0;
  }

  /** The newest time ever added to a segment, or -Infinity. */
  newestIn(segment: string): number {
    return this.#bySegment.get(segment)?.newest ?? -Infinity;
  }

  removeSegment(segment: string): number {
    const inSegment = this.#bySegment.get(segment);
    if (!inSegment) return 0;
    if (this.#countsOnly) {
      this.#bySegment.delete(segment);
      this.#live -= inSegment.live;
      return inSegment.live;
    }
    let removed = 0;
    for (const entry of inSegment.entries) {
      if (!entry.dead) {
        this.#kill(entry);
        removed++;
      }
    }
    this.#bySegment.delete(segment);
    this.#compactIfWorthIt();
    return removed;
  }

  /** The strongest prune cutoff applied so far, null when none. */
  get cutoff(): OrderKey | null {
    return this.#cutoff;
  }

  /** Removes every entry older than `key` (in the store order), now and when added later. */
  applyCutoff(key: OrderKey): number {
    if (this.#cutoff && compareKeys(key, this.#cutoff) <= 0) return 0;
    this.#cutoff = key;
    let removed = 0;
    if (this.#countsOnly) {
      for (const inSegment of this.#bySegment.values()) {
        if (inSegment.newest >= key.time) continue;
        removed += inSegment.live;
        this.#live -= inSegment.live;
        inSegment.live = 0;
      }
      return removed;
    }
    for (const entry of this.#all.items) {
      if (compareKeys(entry, key) >= 0) break;
      if (!entry.dead) {
        this.#kill(entry);
        removed++;
      }
    }
    this.#compactIfWorthIt();
    return removed;
  }

  /** The key of the oldest of the newest `keep` entries; null when there are no more than `keep`. */
  keyKeeping(keep: number): OrderKey | null {
    if (this.#live <= keep) return null;
    let kept = 0;
    const items = this.#all.items;
    for (let i = items.length - 1; i >= 0; i--) {
      if (items[i].dead) continue;
      if (kept === keep) return { time: items[i].time, token: `${items[i].token}~` };
      kept++;
    }
    return null;
  }

  /** Newest first (by time, or by arrival as query.order says): `query.limit` matches after skipping `query.offset`. */
  search(query: SearchQuery): ProfileSummary[] {
    const limit = Math.floor(query.limit);
    const found: ProfileSummary[] = [];
    if (!(limit > 0)) return found;
    if (query.order === 'arrival') return this.#searchByArrival(query, limit);
    let skip = Math.max(0, Math.floor(query.offset ?? 0));
    const filter = summaryFilter(query);
    visitNewestFirst(this.#candidates(query), query, (entry) => {
      if (filter(entry)) {
        if (skip > 0) {
          skip--;
          return false;
        }
        const { token, status, ip, method, url, time, duration, route } = entry;
        found.push({ token, status, ip, method, url, time, duration, route: route ?? null });
      }
      return found.length >= limit;
    });
    return found;
  }

  #searchByArrival(query: SearchQuery, limit: number): ProfileSummary[] {
    const found: ProfileSummary[] = [];
    let skip = Math.max(0, Math.floor(query.offset ?? 0));
    const after = query.afterArrival ?? 0;
    const filter = summaryFilter(query);
    for (let i = this.#arrived.length - 1; i >= 0 && found.length < limit; i--) {
      const entry = this.#arrived[i];
      if (entry.arrival <= after) break;
      if (entry.dead || !filter(entry)) continue;
      if (skip > 0) skip--;
      else {
        const { token, status, ip, method, url, time, duration, route, arrival } = entry;
        found.push({ token, status, ip, method, url, time, duration, route: route ?? null, arrival });
      }
    }
    return found;
  }

  /**
   * How many match, whatever the limit and offset. Without a token or a time range, and with at most
   * one of status, method, IP and URL, from the lists' counts (a page asks for one with each search);
   * with a time range alone, from positions in the time-ordered lists; otherwise by walking the
   * candidates, which stops at atMost + 1 matches (ProfileStore.count).
   */
  count(query: SearchQuery, atMost = Infinity): number {
    const counted = this.#countedLists(query) ?? this.#countedPairs(query);
    if (counted) return counted.reduce((n, list) => n + list.live - (query.hideProfiler ? list.profilers : 0), 0);
    const prefixed = this.#countWithTokenPrefix(query);
    if (prefixed !== null) return prefixed;
    if (!query.status && !query.method && !query.ip && !query.url && !query.token) {
      const between = (list: TimeOrderedList) => list.countBetween(query.since, query.until);
      return (
        between(this.#all) -
        between(this.#killed) -
        (query.hideProfiler ? between(this.#profilerEntries) - between(this.#killedProfilers) : 0)
      );
    }
    const filter = summaryFilter(query);
    let n = 0;
    visitNewestFirst(this.#candidates(query), query, (entry) => {
      if (filter(entry)) n++;
      return n > atMost;
    });
    return n;
  }

  /** The lists whose entries are exactly the query's matches (the profiler's own left to their counts), or null when none are. */
  #countedLists(query: SearchQuery): TimeOrderedList[] | null {
    if (query.token || query.since !== undefined || query.until !== undefined) return null;
    const filters = [query.status, query.method, query.ip, query.url].filter(Boolean).length;
    if (filters > 1) return null;
    if (query.status) {
      const matches = statusMatcher(query.status);
      return [...this.#byStatus].filter(([code]) => matches(code)).map(([, list]) => list);
    }
    if (query.method) {
      const matches = methodMatcher(query.method);
      return [...this.#byMethod.values()].filter((p) => matches(p.value)).map((p) => p.list);
    }
    const part = query.ip || query.url;
    if (part)
      return [...(query.ip ? this.#byIp : this.#byUrl).values()]
        .filter((p) => p.value.includes(part))
        .map((p) => p.list);
    return [this.#all];
  }

  /** With status and method alone: the counts of each pair that matches. */
  #countedPairs(query: SearchQuery): { live: number; profilers: number }[] | null {
    if (
      !query.status ||
      !query.method ||
      query.ip ||
      query.url ||
      query.token ||
      query.since !== undefined ||
      query.until !== undefined
    )
      return null;
    const status = statusMatcher(query.status);
    const method = methodMatcher(query.method);
    return [...this.#byStatusAndMethod.values()].filter((pair) => status(pair.status) && method(pair.method));
  }

  #statusAndMethod(entry: IndexEntry): { live: number; profilers: number } {
    const key = `${entry.status} ${entry.method}`;
    let pair = this.#byStatusAndMethod.get(key);
    if (!pair)
      this.#byStatusAndMethod.set(key, (pair = { status: entry.status, method: entry.method, live: 0, profilers: 0 }));
    return pair;
  }

  /**
   * With a token prefix alone: the tokens' bits in its range, less the profiler's own requests
   * under it when they are left out and few enough to go through; null when that does not hold
   * (some token not of the generated form, many profiler requests, other filters).
   */
  #countWithTokenPrefix(query: SearchQuery): number | null {
    if (
      !query.token ||
      query.status ||
      query.method ||
      query.ip ||
      query.url ||
      query.since !== undefined ||
      query.until !== undefined
    )
      return null;
    if (this.#oddTokens > 0 || (query.hideProfiler && this.#profilerEntries.items.length > MAX_TOKEN_RANGE))
      return null;
    const prefix = query.token.toLowerCase();
    if (prefix.length > 6) return 0;
    const first = tokenNumber(prefix.padEnd(6, '0'));
    if (first < 0) return 0;
    let n = this.#tokenBits.countRange(first, first + 16 ** (6 - prefix.length));
    if (query.hideProfiler)
      for (const entry of this.#profilerEntries.items) if (!entry.dead && entry.token.startsWith(prefix)) n--;
    return n;
  }

  #route(name: string | null | undefined): string | null {
    if (name === undefined || name === null) return null;
    let kept = this.#routes.get(name);
    if (kept === undefined) this.#routes.set(name, (kept = name));
    return kept;
  }

  /** The smallest set of lists that holds every match: a posting set when one is selective, else the whole list. */
  #candidates(query: SearchQuery): TimeOrderedList[] {
    let best: TimeOrderedList[] = [this.#all];
    let bestSize = this.#live;
    const consider = (lists: TimeOrderedList[]) => {
      const size = lists.reduce((n, list) => n + list.items.length, 0);
      if (size * SELECTIVE <= this.#all.items.length && size < bestSize) {
        best = lists;
        bestSize = size;
      }
    };
    if (query.status) {
      const matches = statusMatcher(query.status);
      consider([...this.#byStatus].filter(([code]) => matches(code)).map(([, list]) => list));
    }
    if (query.method) {
      const matches = methodMatcher(query.method);
      consider([...this.#byMethod.values()].filter((p) => matches(p.value)).map((p) => p.list));
    }
    for (const [wanted, postings] of [
      [query.ip, this.#byIp],
      [query.url, this.#byUrl],
    ] as const) {
      if (wanted && postings.size * SELECTIVE <= this.#live) {
        consider([...postings.values()].filter((p) => p.value.includes(wanted)).map((p) => p.list));
      }
    }
    if (query.token) {
      const prefixed = this.#withTokenPrefix(query.token.toLowerCase());
      if (prefixed) consider([prefixed]);
    }
    return best;
  }

  /**
   * The live entries whose token starts with `prefix`, oldest first, found by their tokens' bits
   * when the prefix leaves at most MAX_TOKEN_RANGE tokens (3 digits or more): a rare prefix costs
   * that many lookups instead of a walk through the store. Null when a walk is cheaper, or when some
   * token is not of the generated form (the bits do not hold it).
   */
  #withTokenPrefix(prefix: string): TimeOrderedList | null {
    if (this.#oddTokens > 0 || prefix.length < 3) return null;
    const list = new TimeOrderedList();
    if (prefix.length > 6) return list;
    const first = tokenNumber(prefix.padEnd(6, '0'));
    if (first < 0) return list;
    const count = 16 ** (6 - prefix.length);
    if (count > MAX_TOKEN_RANGE) return null;
    for (let n = first; n < first + count; n++) {
      if (!this.#tokenBits.has(n)) continue;
      const entry = this.#byToken.get(n.toString(16).padStart(6, '0'));
      if (entry) list.items.push(entry);
    }
    list.items.sort(compareKeys);
    list.live = list.items.length;
    return list;
  }

  #kill(entry: IndexEntry): void {
    entry.dead = true;
    this.#live--;
    this.#dead++;
    if (this.#byToken.get(entry.token) === entry) {
      this.#byToken.delete(entry.token);
      const n = tokenNumber(entry.token);
      if (n >= 0) this.#tokenBits.delete(n);
      else this.#oddTokens--;
    }
    const inSegment = this.#bySegment.get(entry.segment);
    if (inSegment) inSegment.live--;
    const url = this.#byUrl.get(entry.url)!;
    for (const list of [
      this.#all,
      this.#byStatus.get(entry.status)!,
      this.#byMethod.get(entry.method)!.list,
      this.#byIp.get(entry.ip)!.list,
      url.list,
      this.#statusAndMethod(entry),
    ]) {
      list.live--;
      if (url.profiler) list.profilers--;
    }
    this.#killed.insert(entry);
    if (url.profiler) this.#killedProfilers.insert(entry);
  }

  #compactIfWorthIt(): void {
    if (this.#dead < 1024 || this.#dead < this.#live) return;
    this.#all.compact();
    this.#killed = new TimeOrderedList();
    this.#killedProfilers = new TimeOrderedList();
    this.#profilerEntries.compact();
    for (const [status, list] of this.#byStatus) {
      list.compact();
      if (list.items.length === 0) this.#byStatus.delete(status);
    }
    for (const postings of [this.#byMethod, this.#byIp, this.#byUrl]) {
      for (const [value, p] of postings) {
        p.list.compact();
        if (p.list.items.length === 0) postings.delete(value);
      }
    }
    for (const inSegment of this.#bySegment.values())
      inSegment.entries = inSegment.entries.filter((entry) => !entry.dead);
    this.#arrived = this.#arrived.filter((entry) => !entry.dead);
    this.#dead = 0;
  }
}

function posting(postings: Map<string, Posting>, value: string): Posting {
  let p = postings.get(value);
  if (!p) postings.set(value, (p = { value, list: new TimeOrderedList(), profiler: isProfilerUrl(value) }));
  return p;
}
