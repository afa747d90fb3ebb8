import type { RequestData, ProfileSummary, RouterData } from '../profile.js';
import { isValidToken } from '../token.js';
import type { RouteCollection } from '../../routing/route-collection.js';
import type { ByteReader } from './byte-writer.js';
import {
  copyOfPlaces,
  emptyPlaces,
  maskVaryingParts,
  readVaryingParts,
  varyingOffsets,
  type VaryingPlaces,
} from './varying-parts.js';

/**
 * What the profiler worker learnt of a record it stored as it is (build-batch.ts): the redaction policy
 * left it unchanged, and the routing panel and the response's description it was stored with.
 */
export interface StoredShape {
  /** the trace name ids its body refers to */
  ids: readonly number[];
  router: RouterData;
  response: RequestData['response'];
  /** the values sent once it refers to, redacted (redacts-nothing.ts) */
  sentOnce: ReadonlyMap<number, string>;
  summary: ProfileSummary;
  /** where its response body begins, from its body's start */
  responseBody: number;
  /** the route table it was read against */
  table: RouteCollection;
  /**
   * its response headers that end with its token (X-Debug-Token and its link), without it: each is
   * empty or ends with "/", which the redaction policy judges apart from the token (redact-record.ts)
   */
  tokenHeads: readonly string[];
}

export interface Known extends StoredShape {
  /** its body with its varying parts zeroed (varying-parts.ts) */
  masked: Buffer;
  /** where its record noted its varying parts */
  places: VaryingPlaces;
  /** where its stored part differs from one request to the next (varyingOffsets) */
  varying: { floats: number[]; runs: number[] };
}

function samePlaces(a: VaryingPlaces, b: VaryingPlaces): boolean {
  const same = (x: readonly number[], y: readonly number[]) => x.length === y.length && x.every((v, i) => v === y[i]);
  return (
    a.length === b.length &&
    a.calls === b.calls &&
    a.callCount === b.callCount &&
    a.phases === b.phases &&
    a.phaseCount === b.phaseCount &&
    a.tokenLength === b.tokenLength &&
    same(a.tokens, b.tokens) &&
    same(a.floats, b.floats)
  );
}

/** A record of a shape met before, with what it changes: its token, start and duration. */
export interface ShapeHit {
  shape: Known;
  /** where the record notes its varying parts: read into lists find() reuses, valid until it is next called */
  places: VaryingPlaces;
  token: string;
  time: number;
  duration: number;
}

/** The bodies kept: a record longer than this is always read (an HTML page); so many shapes at most, then all forgotten. */
const MAX_BODY = 32 * 1024;
const MAX_SHAPES = 128;
/** shapes of one length and alignment tried in turn */
const MAX_PER_KEY = 4;

/**
 * The shapes of the records the worker stored as they are: a record whose body is byte for byte the
 * body of one of them, once both have their token, clock readings and memory figures zeroed
 * (varying-parts.ts), is that request again. It is stored as that one was, with its own token and
 * times, without reading it back, building its panels or asking the redaction policy again: the
 * policy reads no clock reading, and reads the token only in the profiler's own response headers
 * (where it keeps a token as it is, and judges what comes before it, here the same text) and in a
 * response body holding it (such a record is read).
 */
export class RecordShapes {
  readonly #known = new Map<number, Known[]>();
  #count = 0;
  #scratch = Buffer.alloc(4096);
  #view = new DataView(this.#scratch.buffer, this.#scratch.byteOffset, this.#scratch.byteLength);
  /** the trace names the shapes' ids refer to: another list (the main thread's, after the worker's) forgets them */
  #names: readonly string[] | null = null;
  /** the record last looked up: its masked body, for remember() */
  #pending: { key: number; length: number; places: VaryingPlaces } | null = null;
  /** the trailer of the record last looked up, read into the same lists each time */
  readonly #places = emptyPlaces();
  /** records found like one stored before, so far */
  hits = 0;

  clear(): void {
    this.#known.clear();
    this.#count = 0;
    this.#pending = null;
  }

  /**
   * The shape of the record whose body is `bytes` from `body` to `end`, when one is known and still
   * holds with this record's token; null otherwise (the record is then read, and remember() may keep
   * its shape). `r` reads `bytes` and is left where it was.
   */
  find(
    bytes: Uint8Array,
    r: ByteReader,
    body: number,
    end: number,
    names: readonly string[],
    tables: { get(id: number): RouteCollection },
  ): ShapeHit | null {
    this.#pending = null;
    if (names !== this.#names) {
      this.clear();
      this.#names = names;
    }
    const places = readVaryingParts(r, body, end, this.#places);
    if (places === null || places.length > MAX_BODY) return null;
    const { length } = places;
    if (this.#scratch.length < length) {
      this.#scratch = Buffer.alloc(Math.max(length, this.#scratch.length * 2));
      this.#view = new DataView(this.#scratch.buffer, this.#scratch.byteOffset, this.#scratch.byteLength);
    }
    this.#scratch.set(bytes.subarray(body, body + length));
    maskVaryingParts(this.#view, places);
    // the trace's rows are aligned to 8 in the batch: their padding depends on where the body began (at a multiple of 8)
    const key = length * 8 + (body & 7);
    this.#pending = { key, length, places };
    const candidates = this.#known.get(key);
    if (candidates === undefined) return null;
    // the same bytes where the same places vary: what storage/entry-patch.ts takes on trust
    const shape = candidates.find(
      (known) => this.#scratch.compare(known.masked, 0, length, 0, length) === 0 && samePlaces(known.places, places),
    );
    if (shape === undefined) return null;
    const was = r.offset;
    r.seek(body);
    const routes = r.uint();
    const token = r.optionalString();
    const time = r.float();
    r.float();
    const duration = r.float();
    r.seek(was);
    // the profiler's own headers end with a token the policy keeps as it is (redact-record.ts), after the same text
    if (token === null || !isValidToken(token) || tables.get(routes) !== shape.table) return null;
    // the request panel describes a response body with its token left out (body-fingerprint.ts)
    if (
      Buffer.from(bytes.buffer, bytes.byteOffset + body + shape.responseBody, length - shape.responseBody).includes(
        token,
      )
    )
      return null;
    this.hits++;
    return { shape, places, token, time, duration };
  }

  /** Keeps the shape of the record find() was last asked about, which the worker has just stored as it is. */
  remember(shape: StoredShape, responseBody: string | Buffer | null): Known | null {
    const pending = this.#pending;
    this.#pending = null;
    if (pending === null || !isValidToken(shape.summary.token)) return null;
    if (shape.tokenHeads.some((head) => head !== '' && !head.endsWith('/'))) return null;
    if (responseBody !== null && responseBody.includes(shape.summary.token)) return null;
    if (this.#count >= MAX_SHAPES) this.clear();
    let candidates = this.#known.get(pending.key);
    if (candidates === undefined) this.#known.set(pending.key, (candidates = []));
    if (candidates.length >= MAX_PER_KEY) {
      candidates.shift();
      this.#count--;
    }
    const known: Known = {
      ...shape,
      masked: Buffer.from(this.#scratch.subarray(0, pending.length)),
      places: copyOfPlaces(pending.places),
      varying: varyingOffsets(pending.places, shape.responseBody),
    };
    candidates.push(known);
    this.#count++;
    return known;
  }
}
