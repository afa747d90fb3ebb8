import { PREVIEW_BYTES } from '../http/previewable-type.js';
import { spanMs } from '../http/request.js';

/**
 * A client's headers as it gave them, unconverted: undici's flat list of names and values
 * (strings or Buffers) or its raw "name: value\r\n" block, node:http's record of names to values.
 */
export type RawHeaders = readonly unknown[] | string | Readonly<Record<string, unknown>>;

/**
 * One outgoing HTTP request as the request's code made it: what the client's events carried, by
 * reference, and clock readings (performance.now()). Nothing is derived here; the HTTP client
 * collector makes the URL, the header pairs, the sizes and the times of the panel from it.
 */
export class OutgoingCall {
  /** when the response head arrived; null before */
  headersAt: number | null = null;
  /** when the response ended or the call failed; null while in flight */
  endAt: number | null = null;
  status: number | null = null;
  statusText: unknown = '';
  responseHeaders: RawHeaders | null = null;
  error: string | null = null;
  timedOut = false;
  /** copies of the first bytes of a text answer (one past the preview's cap), as the client received them; null when not watched */
  bodyHead: Buffer[] | null = null;
  /** bytes of the answer's body received */
  bodyReceived = 0;

  constructor(
    readonly client: 'undici' | 'node:http',
    /** the incoming request's start, on the same clock */
    readonly origin: number,
    readonly startAt: number,
    readonly method: unknown,
    /** the URL up to its path: undici's origin, or node:http's protocol and host */
    readonly urlHead: unknown,
    readonly path: unknown,
    readonly requestHeaders: RawHeaders | null,
    /** bytes of the body given; null when unknown (the collector then reads Content-Length) */
    readonly requestSize: number | null,
  ) {}

  /** Keeps a copy of a received chunk's bytes while the preview has room (the client may reuse the chunk's memory). */
  received(chunk: Uint8Array): void {
    const kept = this.bodyReceived;
    this.bodyReceived += chunk.byteLength;
    if (kept > PREVIEW_BYTES) return;
    (this.bodyHead ??= []).push(Buffer.from(chunk.subarray(0, PREVIEW_BYTES + 1 - kept)));
  }

  /** ms, as the panel shows it; null while in flight */
  get duration(): number | null {
    return this.endAt === null ? null : callSpan(this.origin, this.startAt, this.endAt);
  }
}

/** ms from `startAt` to `endAt`: the difference of the two, each measured from the request's start (Request.elapsed()). */
export function callSpan(origin: number, startAt: number, endAt: number): number {
  return spanMs(origin, endAt) - spanMs(origin, startAt);
}
