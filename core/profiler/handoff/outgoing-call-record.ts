import { OutgoingCall, type RawHeaders } from '../../debug/outgoing-call.js';
import { bitFlags } from './bit-flags.js';
import type { ByteReader, ByteWriter } from './byte-writer.js';
import type { VaryingParts } from './varying-parts.js';

/**
 * An outgoing call in the hand-off record: its clock readings, its strings as UTF-8 and its headers
 * as the client gave them (undici's Buffers copied as bytes), never as JSON. The worker reads it
 * back into an OutgoingCall whose headers are strings, for the HTTP client collector.
 */

const Has = bitFlags('HeadersAt', 'EndAt', 'Status', 'Error', 'TimedOut', 'RequestSize', 'Body');
const enum Headers {
  None,
  Block,
  List,
  Record,
}

/** `clock`: where the call's clock readings are noted as what changes from one request to the next (varying-parts.ts). */
export function writeOutgoingCall(w: ByteWriter, call: OutgoingCall, clock: VaryingParts | null = null): void {
  const { headersAt, endAt, status, error, requestSize } = call;
  w.uint(call.client === 'node:http' ? 1 : 0);
  w.uint(
    (headersAt === null ? 0 : Has.HeadersAt) |
      (endAt === null ? 0 : Has.EndAt) |
      (status === null ? 0 : Has.Status) |
      (error === null ? 0 : Has.Error) |
      (call.timedOut ? Has.TimedOut : 0) |
      (requestSize === null ? 0 : Has.RequestSize) |
      (call.bodyHead === null ? 0 : Has.Body),
  );
  clock?.float(w.length);
  w.float(call.origin);
  clock?.float(w.length);
  w.float(call.startAt);
  if (headersAt !== null) {
    clock?.float(w.length);
    w.float(headersAt);
  }
  if (endAt !== null) {
    clock?.float(w.length);
    w.float(endAt);
  }
  if (status !== null) w.float(status);
  if (error !== null) w.string(error);
  if (requestSize !== null) w.float(requestSize);
  if (call.bodyHead !== null) {
    w.float(call.bodyReceived);
    w.bytes(Buffer.concat(call.bodyHead));
  }
  w.string(text(call.method));
  w.string(text(call.urlHead));
  w.string(text(call.path));
  w.string(text(call.statusText));
  writeHeaders(w, call.requestHeaders);
  writeHeaders(w, call.responseHeaders);
}

export function readOutgoingCall(r: ByteReader): OutgoingCall {
  const client = r.uint() === 1 ? 'node:http' : 'undici';
  const has = r.uint();
  const origin = r.float();
  const startAt = r.float();
  const headersAt = has & Has.HeadersAt ? r.float() : null;
  const endAt = has & Has.EndAt ? r.float() : null;
  const status = has & Has.Status ? r.float() : null;
  const error = has & Has.Error ? r.string() : null;
  const requestSize = has & Has.RequestSize ? r.float() : null;
  const bodyReceived = has & Has.Body ? r.float() : 0;
  const bodyHead = has & Has.Body ? [r.bytes()] : null;
  const method = r.string();
  const urlHead = r.string();
  const path = r.string();
  const statusText = r.string();
  const call = new OutgoingCall(client, origin, startAt, method, urlHead, path, readHeaders(r), requestSize);
  call.headersAt = headersAt;
  call.endAt = endAt;
  call.status = status;
  call.statusText = statusText;
  call.responseHeaders = readHeaders(r);
  call.error = error;
  call.timedOut = (has & Has.TimedOut) !== 0;
  call.bodyReceived = bodyReceived;
  call.bodyHead = bodyHead;
  return call;
}

function text(value: unknown): string {
  return typeof value === 'string' ? value : String(value ?? '');
}

/** A list's items as they are (a Buffer's bytes are read back as its UTF-8 text); a record's names and values as a list. */
function writeHeaders(w: ByteWriter, headers: RawHeaders | null): void {
  if (Array.isArray(headers)) {
    w.uint(Headers.List);
    w.uint(headers.length);
    for (const item of headers) {
      if (typeof item === 'string') w.string(item);
      else if (item instanceof Uint8Array) w.bytes(item);
      else w.string(String(item));
    }
  } else if (typeof headers === 'string') {
    w.uint(Headers.Block);
    w.string(headers);
  } else if (headers !== null && typeof headers === 'object') {
    w.uint(Headers.Record);
    const at = w.reserve32();
    let count = 0;
    const record = headers as Readonly<Record<string, unknown>>;
    for (const name of Object.keys(record)) {
      const value = record[name];
      for (const one of Array.isArray(value) ? value : [value]) {
        w.string(name);
        w.string(String(one));
        count += 2;
      }
    }
    w.patch32(at, count);
  } else {
    w.uint(Headers.None);
  }
}

function readHeaders(r: ByteReader): RawHeaders | null {
  switch (r.uint()) {
    case Headers.Block:
      return r.string();
    case Headers.List:
      return readList(r, r.uint());
    case Headers.Record:
      return readList(r, r.fixed32());
    default:
      return null;
  }
}

function readList(r: ByteReader, count: number): string[] {
  const list: string[] = [];
  for (let n = 0; n < count; n++) list.push(r.string());
  return list;
}
