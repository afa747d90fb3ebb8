import type { RequestData, ProfileSummary, RouterData } from '../profile.js';
import { isValidToken } from '../token.js';
import type { RouteCollection } from '../../routing/route-collection.js';
import type { ByteReader } from './byte-writer.js';
import { bodyFingerprint } from '../body-fingerprint.js';
import { pageTitle } from '../request-collector.js';
import { readResponseText } from './request-record.js';
import {
  copyOfPlaces,
  emptyPlaces,
  maskVaryingParts,
  readVaryingParts,
  varyingEnd,
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
  /**
   * its body with its varying parts zeroed (varying-parts.ts); up to its response body only when that
   * is a page (`page`), which is described, never compared byte for byte
   */
  masked: Buffer;
  /** its response body is an HTML page of this title (before redaction), which the request panel describes by size, title and structure alone */
  page: { title: string | null } | null;
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

/** The bodies kept, up to their response body when it is a page: a record longer than this is always read; so many shapes at most, then all forgotten. */
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
 * response body holding it (such a record is read). An HTML page is the exception: the store keeps
 * only its description (size, title, structure), never the page, so a record the same up to its page
 * is that request again when its page is described alike (describedAlike), whatever token and times
 * the page shows (the debug 404 page's links, the toolbar's time).
 */
export class RecordShapes {
  readonly #known = new Map<number, Known[]>();
  #count = 0;
  #scratch = Buffer.alloc(4096);
  #view = new DataView(this.#scratch.buffer, this.#scratch.byteOffset, this.#scratch.byteLength);
  /** the trace names the shapes' ids refer to: another list (the main thread's, after the worker's) forgets them */
  #names: readonly string[] | null = null;
  /** the record last looked up: its masked body, for remember() */
  #pending: { key: number; length: number; kept: number; places: VaryingPlaces } | null = null;
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
    if (places === null) return null;
    const { length } = places;
    // a record longer than MAX_BODY is like a stored one only up to its response body (a page), kept within it
    const kept = Math.min(length, MAX_BODY);
    if (varyingEnd(places) > kept) return null;
    if (this.#scratch.length < kept) {
      this.#scratch = Buffer.alloc(Math.max(kept, this.#scratch.length * 2));
      this.#view = new DataView(this.#scratch.buffer, this.#scratch.byteOffset, this.#scratch.byteLength);
    }
    this.#scratch.set(bytes.subarray(body, body + kept));
    maskVaryingParts(this.#view, places);
    // the trace's rows are aligned to 8 in the batch: their padding depends on where the body began (at a multiple of 8)
    const key = length * 8 + (body & 7);
    this.#pending = { key, length, kept, places };
    const candidates = this.#known.get(key);
    if (candidates === undefined) return null;
    // the same bytes where the same places vary: what storage/entry-patch.ts takes on trust
    const shape = candidates.find(
      (known) =>
        known.masked.length <= kept &&
        this.#scratch.compare(known.masked, 0, known.masked.length, 0, known.masked.length) === 0 &&
        samePlaces(known.places, places),
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
    if (shape.page === null) {
      // the request panel describes a response body with its token left out (body-fingerprint.ts)
      const response = Buffer.from(
        bytes.buffer,
        bytes.byteOffset + body + shape.responseBody,
        length - shape.responseBody,
      );
      if (response.includes(token)) return null;
    } else if (!describedAlike(shape, r, body + shape.responseBody, token)) return null;
    this.hits++;
    return { shape, places, token, time, duration };
  }

  /** Keeps the shape of the record find() was last asked about, which the worker has just stored as it is. */
  remember(shape: StoredShape, responseBody: string | Buffer | null): Known | null {
    const pending = this.#pending;
    this.#pending = null;
    if (pending === null || !isValidToken(shape.summary.token)) return null;
    if (shape.tokenHeads.some((head) => head !== '' && !head.endsWith('/'))) return null;
    const page =
      typeof responseBody === 'string' && isDescribedPage(shape.response) ? { title: pageTitle(responseBody) } : null;
    if (
      page === null &&
      (pending.kept < pending.length || (responseBody !== null && responseBody.includes(shape.summary.token)))
    )
      return null;
    const masked = page === null ? pending.length : shape.responseBody;
    if (masked > pending.kept) return null;
    if (this.#count >= MAX_SHAPES) this.clear();
    let candidates = this.#known.get(pending.key);
    if (candidates === undefined) this.#known.set(pending.key, (candidates = []));
    if (candidates.length >= MAX_PER_KEY) {
      candidates.shift();
      this.#count--;
    }
    const known: Known = {
      ...shape,
      masked: Buffer.from(this.#scratch.subarray(0, masked)),
      page,
      places: copyOfPlaces(pending.places),
      varying: varyingOffsets(pending.places, shape.responseBody),
    };
    candidates.push(known);
    this.#count++;
    return known;
  }
}

/** A response the request panel describes by its size, title and structure alone: an HTML page, no preview of it shown. */
function isDescribedPage(response: RequestData['response']): boolean {
  return response.structure?.kind === 'html' && (response.body ?? null) === null;
}

/**
 * Whether the page at `at` (a response body as request-record.ts writes it) is described as the
 * stored shape's page was: the same title and the same structure, which leaves out the token and
 * counts each run of digits as one (body-fingerprint.ts). Its size is the shape's: the record is as
 * long, and the same up to its response body. A page holds its token and times (a debug page's links,
 * the toolbar's), so it is never compared byte for byte.
 */
function describedAlike(shape: Known, r: ByteReader, at: number, token: string): boolean {
  const was = r.offset;
  r.seek(at);
  const text = readResponseText(r);
  r.seek(was);
  if (text === null || pageTitle(text) !== shape.page!.title) return false;
  const structure = bodyFingerprint(shape.response.contentType, text, token);
  const stored = shape.response.structure;
  return (
    structure !== null &&
    stored != null &&
    structure.kind === stored.kind &&
    structure.nodes === stored.nodes &&
    structure.hash === stored.hash
  );
}
