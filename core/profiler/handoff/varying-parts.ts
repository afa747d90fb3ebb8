import type { ByteReader, ByteWriter } from './byte-writer.js';
import { CALL_STRIDE, PHASE_STRIDE } from '../../kernel/request-trace.js';

/**
 * Where a hand-off record (request-record.ts) holds what changes from one request to the next even
 * when nothing else does: its token (in the head and at the end of the profiler's own response
 * headers), its clock readings (the head's, the log records' times, the start and end of each listener
 * call and phase) and the memory it left. The kernel notes them as it writes the record and appends
 * them after it, where no reader of the record looks; the profiler worker masks them to tell a record
 * made like one it has already stored (record-shapes.ts).
 *
 * Trailer, after the response (offsets from where the record's body begins, after its names):
 *   uint calls, uint call numbers: where the listener calls' numbers begin, and how many
 *   uint phases, uint phase numbers: the same for the phases
 *   uint token length, uint n, n × uint: where a copy of the token begins
 *   uint n, n × uint: where a float64 clock reading (or memory figure) begins
 *   fixed32: where this trailer begins
 */
export class VaryingParts {
  /** where the record's body begins in the writer */
  body = 0;
  calls = 0;
  callCount = 0;
  phases = 0;
  phaseCount = 0;
  tokenLength = 0;
  readonly tokens: number[] = [];
  readonly floats: number[] = [];

  /** Starts noting a record whose body begins at `body`. */
  begin(body: number): void {
    this.body = body;
    this.calls = this.callCount = this.phases = this.phaseCount = this.tokenLength = 0;
    this.tokens.length = 0;
    this.floats.length = 0;
  }

  /** A float64 about to be written at `at`. */
  float(at: number): void {
    this.floats.push(at - this.body);
  }

  /** A copy of the token (ASCII, `length` bytes) that ends at `end`. */
  token(end: number, length: number): void {
    this.tokenLength = length;
    this.tokens.push(end - length - this.body);
  }

  /** The listener calls' numbers (`count` of them) just written, ending at `end`. */
  callRows(end: number, count: number): void {
    this.callCount = count;
    this.calls = end - count * 8 - this.body;
  }

  /** The phases' numbers (`count` of them) just written, ending at `end`. */
  phaseRows(end: number, count: number): void {
    this.phaseCount = count;
    this.phases = end - count * 8 - this.body;
  }
}

/** X-Debug-Token and X-Debug-Token-Link, the profiler's own response headers: a record notes where they end with its token. */
export function isTokenHeader(name: string): boolean {
  if ((name.length !== 13 && name.length !== 18) || (name.charCodeAt(0) | 0x20) !== 0x78 /* x */) return false;
  const lower = name.toLowerCase();
  return lower === 'x-debug-token' || lower === 'x-debug-token-link';
}

/** Appends the trailer of `parts` to the record being written. */
export function writeVaryingParts(w: ByteWriter, parts: VaryingParts): void {
  const at = w.length - parts.body;
  w.uint(parts.calls);
  w.uint(parts.callCount);
  w.uint(parts.phases);
  w.uint(parts.phaseCount);
  w.uint(parts.tokenLength);
  w.uint(parts.tokens.length);
  for (const offset of parts.tokens) w.uint(offset);
  w.uint(parts.floats.length);
  for (const offset of parts.floats) w.uint(offset);
  w.patch32(w.reserve32(), at);
}

/** Reads past the trailer that follows a record's response (a reader of records one after another, without their lengths). */
export function skipVaryingParts(r: ByteReader): void {
  for (let n = 5; n > 0; n--) r.uint();
  for (let n = r.uint(); n > 0; n--) r.uint();
  for (let n = r.uint(); n > 0; n--) r.uint();
  r.fixed32();
}

/** A record's trailer, read back; null when the record has none that fits in it (the record is then read as any other). */
export interface VaryingPlaces {
  /** the trailer's offset from the body's start: the bytes of the record up to it are its body */
  length: number;
  calls: number;
  callCount: number;
  phases: number;
  phaseCount: number;
  tokenLength: number;
  tokens: number[];
  floats: number[];
}

/** A trailer to read into (readVaryingParts): its lists are emptied first. */
export function emptyPlaces(): VaryingPlaces {
  return { length: 0, calls: 0, callCount: 0, phases: 0, phaseCount: 0, tokenLength: 0, tokens: [], floats: [] };
}

/** A copy of `places` that a later read into them leaves as it is. */
export function copyOfPlaces(places: VaryingPlaces): VaryingPlaces {
  return { ...places, tokens: places.tokens.slice(), floats: places.floats.slice() };
}

const fits = (offset: number, bytes: number, length: number) => offset >= 0 && offset + bytes <= length;

/**
 * The trailer of the record whose body begins at `body` and which ends at `end`, read with `r` (left
 * where it was) into `into` (emptyPlaces: one kept from record to record); null when it has none
 * that fits in it.
 */
export function readVaryingParts(
  r: ByteReader,
  body: number,
  end: number,
  into: VaryingPlaces = emptyPlaces(),
): VaryingPlaces | null {
  const was = r.offset;
  try {
    if (end - body < 4) return null;
    r.seek(end - 4);
    const length = r.fixed32();
    if (length > end - 4 - body) return null;
    r.seek(body + length);
    const places = into;
    places.length = length;
    places.calls = r.uint();
    places.callCount = r.uint();
    places.phases = r.uint();
    places.phaseCount = r.uint();
    places.tokenLength = r.uint();
    places.tokens.length = 0;
    places.floats.length = 0;
    for (let n = r.uint(); n > 0; n--) places.tokens.push(r.uint());
    for (let n = r.uint(); n > 0; n--) places.floats.push(r.uint());
    if (r.offset !== end - 4) return null;
    if (!fits(places.calls, places.callCount * 8, length) || !fits(places.phases, places.phaseCount * 8, length))
      return null;
    if (places.callCount % CALL_STRIDE !== 0 || places.phaseCount % PHASE_STRIDE !== 0) return null;
    for (const offset of places.tokens) if (!fits(offset, places.tokenLength, length)) return null;
    for (const offset of places.floats) if (!fits(offset, 8, length)) return null;
    return places;
  } catch {
    return null;
  } finally {
    r.seek(was);
  }
}

/** Where the last of the parts `places` names ends, from the body's start (0 when it names none). */
export function varyingEnd(places: VaryingPlaces): number {
  let end = Math.max(places.calls + places.callCount * 8, places.phases + places.phaseCount * 8);
  for (const offset of places.floats) end = Math.max(end, offset + 8);
  for (const offset of places.tokens) end = Math.max(end, offset + places.tokenLength);
  return end;
}

/**
 * Zeroes in `view` (a copy of a record's body, from its start) every part `places` names: what is left
 * is the same for two records that differ by nothing else.
 */
export function maskVaryingParts(view: DataView, places: VaryingPlaces): void {
  for (let i = 0; i < places.callCount; i += CALL_STRIDE) {
    // event index, listener id, start, end, stopped: the start and the end
    view.setFloat64(places.calls + (i + 2) * 8, 0);
    view.setFloat64(places.calls + (i + 3) * 8, 0);
  }
  for (let i = 0; i < places.phaseCount; i += PHASE_STRIDE) {
    // name id, start, end
    view.setFloat64(places.phases + (i + 1) * 8, 0);
    view.setFloat64(places.phases + (i + 2) * 8, 0);
  }
  for (const offset of places.floats) view.setFloat64(offset, 0);
  for (const offset of places.tokens) for (let b = 0; b < places.tokenLength; b++) view.setUint8(offset + b, 0);
}

/**
 * Where a record's body holds what `places` names, as the store may keep a record like another
 * (storage/entry-patch.ts): the float64s in increasing order, and the tokens as offset, length
 * pairs; only what lies before `end` (the part of the body that is stored).
 */
export function varyingOffsets(places: VaryingPlaces, end: number): { floats: number[]; runs: number[] } {
  const floats: number[] = [];
  for (let i = 0; i < places.callCount; i += CALL_STRIDE)
    floats.push(places.calls + (i + 2) * 8, places.calls + (i + 3) * 8);
  for (let i = 0; i < places.phaseCount; i += PHASE_STRIDE)
    floats.push(places.phases + (i + 1) * 8, places.phases + (i + 2) * 8);
  floats.push(...places.floats);
  const sorted = [...new Set(floats.filter((offset) => offset + 8 <= end))].sort((a, b) => a - b);
  const runs: number[] = [];
  for (const offset of [...places.tokens].sort((a, b) => a - b))
    if (offset + places.tokenLength <= end) runs.push(offset, places.tokenLength);
  return { floats: sorted, runs };
}
