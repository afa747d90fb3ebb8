import { Readable } from 'node:stream';
import { ProfileFeed } from '../core/profiler/profile-feed.js';
import type { SearchQuery } from '../core/profiler/profile.js';
import type { ProfileStore } from '../core/profiler/storage/profile-storage.js';

const POLL_MS = 500;
/** A comment line now and then keeps proxies and idle timers from closing a quiet stream. */
const HEARTBEAT_MS = 15_000;

/** The live streams one server has open, so that it can end them when it closes. */
export class LiveStreams {
  readonly #open = new Set<Readable>();
  #ended = false;

  /**
   * `/_profiler/live`: Server-Sent Events, one `profile` event (the profile's summary as JSON) for each
   * profile stored from now on that fits the search filter. Polls the store's search, so it sees what
   * any process writes to it. Ends when the client leaves or the server closes (endAll). Resolves once
   * the feed has marked what the store holds: the client hears the stream is open (its headers) only
   * then, so a profile stored after that is never taken for one that was there before (a store still
   * loading its index answers that first search late). Each of `notes` (a filter that was not applied,
   * as the search page says it) is sent first, as a `notice` event.
   */
  async open(
    storage: ProfileStore,
    filter: Omit<SearchQuery, 'limit' | 'since'>,
    notes: readonly string[] = [],
  ): Promise<Readable> {
    const feed = new ProfileFeed(storage, filter);
    let failure: unknown = null;
    try {
      await feed.next();
    } catch (error) {
      // the stream's first poll marks the start then, and says why if it fails again
      failure = error;
    }
    const stream = liveStream(feed, failure !== null, notes);
    if (this.#ended) stream.push(null);
    this.#open.add(stream);
    const forget = () => this.#open.delete(stream);
    stream.once('close', forget);
    stream.once('end', forget);
    return stream;
  }

  /** Ends every stream open, and any that opens later, so that a closing server does not wait for them. */
  endAll(): void {
    this.#ended = true;
    for (const stream of this.#open) stream.push(null);
    this.#open.clear();
  }
}

/** `pollAtOnce`: the feed has not marked its start yet (its first search failed). */
function liveStream(feed: ProfileFeed, pollAtOnce: boolean, notes: readonly string[]): Readable {
  let polling = false;
  let quietSince = Date.now();
  const stream = new Readable({ read() {} });
  const poll = async () => {
    if (polling || stream.destroyed) return;
    polling = true;
    try {
      for (const row of await feed.next()) {
        stream.push(`event: profile\ndata: ${JSON.stringify(row)}\n\n`);
        quietSince = Date.now();
      }
      if (Date.now() - quietSince >= HEARTBEAT_MS) {
        stream.push(': still here\n\n');
        quietSince = Date.now();
      }
    } catch (error) {
      stream.push(`event: failure\ndata: ${JSON.stringify(String((error as Error)?.message ?? error))}\n\n`);
    } finally {
      polling = false;
    }
  };
  const timer = setInterval(() => void poll(), POLL_MS);
  const stop = () => clearInterval(timer);
  stream.once('close', stop);
  stream.once('end', stop);
  stream.push('retry: 2000\n\n');
  for (const note of notes) stream.push(`event: notice\ndata: ${JSON.stringify(note)}\n\n`);
  if (pollAtOnce) void poll();
  return stream;
}
