import { LogBuffer } from '../log/log-buffer.js';
import { Logger, type LogSink } from '../log/logger.js';
import { bodyForm, bodyFormData, bodyJson, bodyText, type BodyOptions } from './body-parsers.js';

export interface RequestInit {
  method: string;
  /** the request target exactly as sent: path plus optional query ("/a%20b?x=1") */
  target: string;
  headers: Record<string, string>;
  body?: Buffer;
  clientIp?: string;
  scheme?: 'http' | 'https';
  /** fallback authority when the Host header is missing */
  defaultHost?: string;
  /** whether the Host is one the server answers as (default true); if not, its redirects are path-only */
  trustedHost?: boolean;
  /** the local address and port of the socket the request came in on */
  serverAddress?: ServerAddress | null;
  logSink?: LogSink;
}

/** Where the server answered: the accepted socket's own address, never what the client claims. */
export interface ServerAddress {
  address: string;
  port: number;
}

export interface RouteAttributes {
  route: string | null;
  controller: string | null;
  params: Record<string, string>;
}

export type QueryValues = Record<string, string | string[]>;

/**
 * One HTTP request, plus the route the kernel matched (attributes) and its log. What the kernel
 * records for the profiler is the request's trace (core/kernel/request-trace.ts), not kept here.
 */
export class Request {
  readonly method: string;
  /** the path exactly as sent (percent-encoding kept), without the query */
  readonly path: string;
  /** the query string without '?', '' when none */
  readonly queryString: string;
  readonly headers: Record<string, string>;
  readonly body: Buffer;
  readonly clientIp: string;
  readonly scheme: 'http' | 'https';
  readonly host: string;
  readonly trustedHost: boolean;
  /** the socket's local address and port; null when unknown (a request built in-process) */
  readonly serverAddress: ServerAddress | null;
  readonly start = performance.now();
  readonly attributes: RouteAttributes = { route: null, controller: null, params: {} };
  readonly log: LogBuffer;
  /** where the kernel that handles this request keeps its trace (core/kernel/kernel.ts); opaque to everyone else */
  traceSlot: object | null = null;
  #query: QueryValues | null = null;
  #logger: Logger | null = null;

  constructor(init: RequestInit) {
    this.method = isUpperCase(init.method) ? init.method : init.method.toUpperCase();
    const q = init.target.indexOf('?');
    this.path = q === -1 ? init.target : init.target.slice(0, q);
    this.queryString = q === -1 ? '' : init.target.slice(q + 1);
    this.headers = init.headers;
    this.body = init.body ?? Buffer.alloc(0);
    this.clientIp = init.clientIp ?? '127.0.0.1';
    this.scheme = init.scheme ?? 'http';
    this.host = init.headers.host || init.defaultHost || 'localhost';
    this.trustedHost = init.trustedHost ?? true;
    this.serverAddress = init.serverAddress ?? null;
    this.log = new LogBuffer(init.logSink, this);
  }

  /** epoch ms to the µs: requests started in the same millisecond still sort newest first */
  get startedAt(): number {
    return Math.round((TIME_ORIGIN + this.start) * 1000) / 1000;
  }

  /** the app's logger, writing to this request's log (made when first asked for: most requests never log) */
  get logger(): Logger {
    this.#logger ??= new Logger('app', this.log.sink);
    return this.#logger;
  }

  /** scheme://host:port/path as sent, without the query (the form used in routing error messages) */
  get baseUrl(): string {
    return `${this.scheme}://${this.host}`;
  }

  get urlWithoutQuery(): string {
    return this.baseUrl + this.path;
  }

  /** the absolute URL with the query */
  get url(): string {
    return this.queryString ? `${this.urlWithoutQuery}?${this.queryString}` : this.urlWithoutQuery;
  }

  get bodySize(): number {
    return this.body.length;
  }

  /**
   * Where a redirect to `pathAndQuery` on this server points: the absolute URL on a trusted
   * Host, else the path alone, never one a browser would read as `//host` (it reads a backslash as `/`).
   */
  locationOf(pathAndQuery: string): string {
    if (this.trustedHost) return this.baseUrl + pathAndQuery;
    return /^[/\\]{2}/.test(pathAndQuery) ? `/.${pathAndQuery}` : pathAndQuery;
  }

  get query(): QueryValues {
    if (!this.#query) this.#query = parseQuery(this.queryString);
    return this.#query;
  }

  get referer(): string | null {
    return this.headers.referer ?? null;
  }

  header(name: string): string | undefined {
    return this.headers[name.toLowerCase()];
  }

  /** ms since the request started */
  elapsed(): number {
    return spanMs(this.start, performance.now());
  }

  /** ms since `start`, an earlier elapsed() */
  since(start: number): number {
    return spanMs(start, this.elapsed());
  }

  /** The body as UTF-8 text: 400 when it is not UTF-8, 413 above `limit` bytes. */
  async text(options?: BodyOptions): Promise<string> {
    return bodyText(this.body, options);
  }

  /** The body parsed as JSON: 400 when it is empty or malformed, 413 above `limit` bytes. */
  async json<T = unknown>(options?: BodyOptions): Promise<T> {
    return bodyJson(this.body, options) as T;
  }

  /** The fields of an urlencoded or multipart form (files left out): 400 when malformed, 415 for another type. */
  form(options?: BodyOptions): Promise<QueryValues> {
    return bodyForm(this.body, this.headers['content-type'], options);
  }

  /** The form as a web FormData, multipart files included. */
  formData(options?: BodyOptions): Promise<FormData> {
    return bodyFormData(this.body, this.headers['content-type'], options);
  }

  /** Whether the client prefers JSON over HTML (Accept header order and q-values). */
  prefersJson(): boolean {
    const accept = this.headers.accept ?? '';
    if (!accept.includes('json')) return false;
    let json = -1;
    let html = -1;
    for (const part of accept.split(',')) {
      const [type, ...params] = part.trim().split(';');
      const qParam = params.find((p) => p.trim().startsWith('q='));
      const quality = qParam ? Number(qParam.trim().slice(2)) || 0 : 1;
      if (/^application\/(.+\+)?json$/.test(type.trim())) json = Math.max(json, quality);
      if (type.trim() === 'text/html' || type.trim() === '*/*')
        html = Math.max(html, type.trim() === '*/*' ? quality - 0.01 : quality);
    }
    return json > html;
  }
}

const TIME_ORIGIN = performance.timeOrigin;

function isUpperCase(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if ((c >= 0x61 && c <= 0x7a) || c > 0x7f) return false;
  }
  return true;
}

/**
 * A span in ms to the nanosecond, the grain of performance.now(): the float noise past it
 * (0.0030600000000049477) would cost every stored profile bytes and compression time.
 */
export function spanMs(from: number, to: number): number {
  return Math.round((to - from) * 1e6) / 1e6;
}

export function parseQuery(queryString: string): QueryValues {
  const query: QueryValues = Object.create(null);
  if (!queryString) return query;
  for (const part of queryString.split('&')) {
    if (!part) continue;
    const eq = part.indexOf('=');
    const key = safeDecode(eq === -1 ? part : part.slice(0, eq));
    const value = eq === -1 ? '' : safeDecode(part.slice(eq + 1));
    const existing = query[key];
    if (existing === undefined) query[key] = value;
    else if (Array.isArray(existing)) existing.push(value);
    else query[key] = [existing, value];
  }
  return query;
}

/** Decodes a query component; malformed escapes are kept as sent rather than failing. */
export function safeDecode(component: string): string {
  const plus = component.replace(/\+/g, ' ');
  try {
    return decodeURIComponent(plus);
  } catch {
    return plus;
  }
}

export function firstValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}
