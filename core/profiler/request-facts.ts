import type { QueryValues, RouteAttributes, ServerAddress } from '../http/request.js';
import type { BodyData, BodyStructure } from './profile.js';

/**
 * What the profile builder reads of a request's HTTP facts: the live Request on the main thread,
 * or the one the profiler worker decodes from a hand-off record (handoff/request-record.ts).
 * What the kernel recorded of it is its trace (trace-facts.ts).
 */
export interface RequestFacts {
  /** epoch ms */
  readonly startedAt: number;
  readonly method: string;
  readonly url: string;
  /** scheme://host as requested */
  readonly baseUrl: string;
  readonly path: string;
  /** without '?', '' when none */
  readonly queryString: string;
  readonly clientIp: string;
  /** the local address and port the request came in on; null when unknown */
  readonly serverAddress: ServerAddress | null;
  readonly headers: Record<string, string>;
  readonly query: QueryValues;
  /** the body's first bytes at least (the worker is sent no more than a profile keeps) */
  readonly body: Buffer;
  /** the whole body's size in bytes */
  readonly bodySize: number;
  readonly attributes: RouteAttributes;
}

/** A response body the worker was not sent whole: its size, and the first bytes of a text kept for the preview. */
export class OpaqueBody {
  constructor(
    readonly size: number,
    readonly head: Buffer | null = null,
  ) {}
}

/**
 * A response body as a stored record keeps it (stored-record.ts): no longer the body, but what the
 * request panel shows of it, made from the body when the profile was first built.
 */
export class DescribedBody {
  constructor(
    readonly size: number,
    readonly title: string | null,
    readonly structure: BodyStructure | null,
    readonly preview: BodyData | null,
  ) {}
}

/** What the profile builder reads of a response. */
export interface ResponseFacts {
  readonly status: number;
  readonly statusText: string;
  readonly headers: Record<string, string>;
  /** string or Buffer; a stream; or, in the worker, the OpaqueBody of one it was not sent; read from a stored record, its DescribedBody */
  readonly body: unknown;
  header(name: string): string | undefined;
  isHtml(): boolean;
}
