import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { Readable } from 'node:stream';
import type { LogSink } from '../log/logger.js';
import { clientIp } from './client-ip.js';
import { hostChecker, HostPolicy } from './host-policy.js';
import { DEFAULT_LINGER, lingerOnClose, type LingerLimits } from './lingering-close.js';
import { findRefusedHeader } from './refused-header.js';
import { Request, type ServerAddress } from './request.js';
import { reasonPhrase, Response } from './response.js';
import { thenMaybe } from '../maybe-promise.js';

export interface RequestHandler {
  handle(request: Request): Promise<Response>;
  /** as handle(), but the Response itself when it was made synchronously: it is then written without waiting for a microtask */
  respond?(request: Request): Response | Promise<Response>;
  terminate(request: Request, response: Response): Promise<void>;
  /** false when terminate() has nothing to do (no kernel.terminate listener): it is then not scheduled */
  terminates?(): boolean;
}

export interface AdapterOptions {
  /** bytes; a larger body is answered 413 */
  bodyLimit: number;
  /** a longer request target is answered 414 */
  maxUrlLength: number;
  trustedProxies: readonly string[];
  /** the hosts this server answers as; on another Host its redirects are path-only */
  hostPolicy: HostPolicy;
  /** a Host outside hostPolicy is answered 421 before the kernel (debug mode: DNS rebinding must not reach the profiler) */
  refuseOtherHosts: boolean;
  /** ms a request body may go without a byte before it is answered 408 */
  bodyIdleTimeout: number;
  /** how long and how much of an unread body is still read after an early answer, so that the client reads it */
  linger: LingerLimits;
  /** whether a response node refuses to write is answered with the reason (debug) or the production text */
  debug: boolean;
  logSink?: LogSink;
  /** called once per answered request, after the response was written */
  onResponse?: (request: Request, response: Response) => void;
  /** called first for every request, before anything is read or answered */
  onRequest?: (res: ServerResponse) => void;
  /** called for a request not answered before its request event returns (a body to read, a kernel that waits), then onSettled */
  onPending?: (res: ServerResponse) => void;
  /** called once per request when the adapter is done with it: answered, refused, or failed */
  onSettled?: (res: ServerResponse) => void;
}

export const DEFAULT_ADAPTER_OPTIONS: AdapterOptions = {
  bodyLimit: 1024 * 1024,
  maxUrlLength: 8192,
  trustedProxies: [],
  hostPolicy: new HostPolicy(),
  refuseOtherHosts: false,
  bodyIdleTimeout: 10_000,
  linger: DEFAULT_LINGER,
  debug: false,
};

/**
 * The bridge from node:http to the kernel. `handler()` is asked once per request,
 * so a reloaded app serves the next request while in-flight ones finish on the old.
 * Requests that cannot be parsed into a Request get a plain answer and never reach
 * the kernel.
 */
export function createNodeListener(handler: () => RequestHandler, options: Partial<AdapterOptions> = {}) {
  const opts = { ...DEFAULT_ADAPTER_OPTIONS, ...definedOnly(options) };
  const settled = opts.onSettled ?? (() => {});
  const checkHost = hostChecker(opts.hostPolicy);
  const failed = (res: ServerResponse, error: unknown): void => {
    if (!res.headersSent) plain(res, 500, `Internal Server Error: ${String((error as Error)?.message ?? error)}`);
    else res.destroy();
    settled(res);
  };
  const started = opts.onRequest;
  return (req: IncomingMessage, res: ServerResponse): void => {
    let pending: Promise<void> | void;
    try {
      started?.(res);
      pending = serve(handler(), req, res, opts, checkHost);
    } catch (error) {
      failed(res, error);
      return;
    }
    if (pending instanceof Promise) {
      opts.onPending?.(res);
      pending.then(
        () => settled(res),
        (error) => failed(res, error),
      );
    } else {
      settled(res);
    }
  };
}

/** Answers the request: synchronously when it has no body and the kernel answered at once, else the promise of it. */
function serve(
  kernel: RequestHandler,
  req: IncomingMessage,
  res: ServerResponse,
  opts: AdapterOptions,
  checkHost: (host: string) => boolean | null,
): Promise<void> | void {
  if (req.httpVersionMajor !== 1 || (req.httpVersionMinor !== 0 && req.httpVersionMinor !== 1)) {
    return plain(
      res,
      505,
      `HTTP Version Not Supported: HTTP/${truncate(req.httpVersion)} (this server speaks HTTP/1.0 and HTTP/1.1).`,
    );
  }
  if (req.httpVersionMinor === 0 && req.headers['transfer-encoding'] !== undefined) {
    return plain(res, 400, 'Bad Request: Transfer-Encoding is not part of HTTP/1.0 (send Content-Length).');
  }
  const authority = absoluteFormAuthority(req.url ?? '/');
  if (authority !== null) {
    // The authority of an absolute-form target names the host (RFC 9112 §3.2.2): it answers to the Host policy too.
    const allowed = checkHost(authority);
    if (allowed === null)
      return plain(
        res,
        400,
        `Bad Request: the request target's authority ${quoted(authority)} is not a host name, IPv4 address or [IPv6] address with an optional :port.`,
      );
    if (!allowed && opts.refuseOtherHosts) return plain(res, 421, misdirected(authority, opts.hostPolicy));
  }
  const target = requestTarget(req.url ?? '/');
  if (target === null)
    return plain(res, 400, `Bad Request: the request target "${truncate(req.url ?? '')}" is not a path.`);
  if (target.length > opts.maxUrlLength)
    return plain(
      res,
      414,
      `URI Too Long: the request target has ${target.length} characters (limit ${opts.maxUrlLength}).`,
    );
  const hosts = countHeader(req.rawHeaders, 'host');
  if (hosts > 1) return plain(res, 400, 'Bad Request: the request has more than one Host header.');
  if (hosts === 0 && req.httpVersion !== '1.0')
    return plain(res, 400, `Bad Request: an HTTP/${req.httpVersion} request must have a Host header.`);
  let trustedHost = true;
  if (hosts === 1) {
    const sent = req.headers.host ?? '';
    const allowed = checkHost(sent);
    if (allowed === null) {
      return plain(
        res,
        400,
        `Bad Request: the Host header ${quoted(sent)} is not a host name, IPv4 address or [IPv6] address with an optional :port.`,
      );
    }
    trustedHost = allowed;
    if (!trustedHost && opts.refuseOtherHosts) return plain(res, 421, misdirected(sent, opts.hostPolicy));
  }
  if (target.includes('\0') || target.includes('%00'))
    return plain(res, 400, 'Bad Request: the request target contains a NUL byte.');

  const declared = Number(req.headers['content-length'] ?? 0);
  if (declared > opts.bodyLimit) return tooLarge(res, req, opts);
  if (!hasBody(req)) return answer(kernel, req, res, opts, target, trustedHost, EMPTY_BODY);
  return readBody(req, opts.bodyLimit, opts.bodyIdleTimeout).then((body) => {
    if (body === TOO_LARGE) return tooLarge(res, req, opts);
    if (body === STALLED) return stalled(res, opts.bodyIdleTimeout);
    return answer(kernel, req, res, opts, target, trustedHost, body);
  });
}

function answer(
  kernel: RequestHandler,
  req: IncomingMessage,
  res: ServerResponse,
  opts: AdapterOptions,
  target: string,
  trustedHost: boolean,
  body: Buffer,
): Promise<void> | void {
  const headers = requestHeaders(req.headers);
  const socket = socketFacts(req.socket);
  const request = new Request({
    method: req.method ?? 'GET',
    target,
    headers,
    body,
    clientIp: clientIp(socket.peer, headers['x-forwarded-for'], opts.trustedProxies),
    scheme: socket.scheme,
    trustedHost,
    defaultHost: headers.host ? undefined : socket.defaultHost,
    serverAddress: socket.serverAddress,
    logSink: opts.logSink,
  });
  const response = kernel.respond ? kernel.respond(request) : kernel.handle(request);
  return thenMaybe(response, (made) => sent(kernel, res, request, made, opts));
}

/**
 * node's header object itself when every value is a string (node makes an array of Set-Cookie
 * alone): a copy would cost every request an object; else a copy with the values joined.
 */
function requestHeaders(given: IncomingMessage['headers']): Record<string, string> {
  if (given['set-cookie'] === undefined) return given as Record<string, string>;
  const headers: Record<string, string> = {};
  for (const name in given) {
    const value = given[name];
    if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return headers;
}

/** What a request learns from its connection, the same for every request a keep-alive connection carries. */
interface SocketFacts {
  peer: string | undefined;
  scheme: 'http' | 'https';
  defaultHost: string;
  serverAddress: ServerAddress | null;
}

const SOCKET_FACTS = Symbol('appkernel.socketFacts');

/** The connection's facts, read from the socket once (each is a getter, some a call into node's binding). */
function socketFacts(socket: Socket): SocketFacts {
  const held = socket as Socket & { [SOCKET_FACTS]?: SocketFacts };
  const known = held[SOCKET_FACTS];
  if (known !== undefined) return known;
  const { remoteAddress, localAddress, localPort } = socket;
  const facts: SocketFacts = {
    peer: remoteAddress,
    scheme: 'encrypted' in socket ? 'https' : 'http',
    defaultHost: `${localAddress ?? '127.0.0.1'}:${localPort ?? 80}`,
    serverAddress: localAddress && localPort ? { address: localAddress, port: localPort } : null,
  };
  // A socket not connected yet, or already closed, has no addresses to keep: asked again next time.
  if (remoteAddress !== undefined && localAddress !== undefined) held[SOCKET_FACTS] = facts;
  return facts;
}

/** Writes the response, then tells onResponse and schedules kernel.terminate. */
function sent(
  kernel: RequestHandler,
  res: ServerResponse,
  request: Request,
  response: Response,
  opts: AdapterOptions,
): Promise<void> | void {
  const streaming = write(res, request, response, opts.debug);
  if (streaming) return streaming.then(() => done(kernel, request, response, opts));
  done(kernel, request, response, opts);
}

function done(kernel: RequestHandler, request: Request, response: Response, opts: AdapterOptions): void {
  opts.onResponse?.(request, response);
  if (kernel.terminates?.() !== false) terminateSoon(kernel, request, response);
}

/** Handler, request and response of each answered request whose kernel.terminate is due, three entries each. */
let dueTerminates: (RequestHandler | Request | Response)[] = [];

/**
 * kernel.terminate runs after the response was written, in the check phase of this turn of the
 * event loop: one setImmediate for every request answered in the turn, not one each.
 */
function terminateSoon(kernel: RequestHandler, request: Request, response: Response): void {
  if (dueTerminates.length === 0) setImmediate(runDueTerminates);
  dueTerminates.push(kernel, request, response);
}

function runDueTerminates(): void {
  const due = dueTerminates;
  dueTerminates = [];
  for (let i = 0; i < due.length; i += 3) {
    try {
      void (due[i] as RequestHandler).terminate(due[i + 1] as Request, due[i + 2] as Response);
    } catch {
      // terminate() reports its listeners' failures itself; one handler's fault must not skip the others.
    }
  }
}

/** An option given as undefined (e.g. an app without `bodyLimit`) keeps its default instead of erasing it. */
export function definedOnly<T extends object>(options: T): Partial<T> {
  return Object.fromEntries(Object.entries(options).filter(([, value]) => value !== undefined)) as Partial<T>;
}

/** The host[:port] of an absolute-form target ("http://evil.example/x"); null for origin-form. */
function absoluteFormAuthority(raw: string): string | null {
  if (raw.startsWith('/')) return null;
  const m = /^https?:\/\/([^/?#]*)/i.exec(raw);
  return m ? m[1] : null;
}

/** origin-form stays as sent; absolute-form is reduced to its path and query; anything else is refused. */
function requestTarget(raw: string): string | null {
  if (raw.startsWith('/')) return raw;
  if (/^https?:\/\//i.test(raw)) {
    const rest = raw.replace(/^https?:\/\/[^/?#]*/i, '');
    return rest.startsWith('/') ? rest : `/${rest}`;
  }
  return null;
}

/** How many times the lower-case `name` was sent, in any case: no string made per header. */
function countHeader(raw: string[], name: string): number {
  let n = 0;
  for (let i = 0; i < raw.length; i += 2) {
    const sent = raw[i];
    if (sent.length === name.length && (sent === name || sent.toLowerCase() === name)) n++;
  }
  return n;
}

const EMPTY_BODY = Buffer.alloc(0);

/** A request without Content-Length or Transfer-Encoding has no body (RFC 9112 §6.3): no need to wait for its end. */
function hasBody(req: IncomingMessage): boolean {
  const length = req.headers['content-length'];
  return (length !== undefined && length !== '0') || req.headers['transfer-encoding'] !== undefined;
}

const TOO_LARGE = Symbol('too large');
const STALLED = Symbol('stalled');

/** The body; TOO_LARGE past `limit` bytes; STALLED when no byte came for `idleMs`. */
function readBody(
  req: IncomingMessage,
  limit: number,
  idleMs: number,
): Promise<Buffer | typeof TOO_LARGE | typeof STALLED> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    const finish = (): boolean => {
      if (done) return false;
      done = true;
      clearTimeout(idle);
      return true;
    };
    const idle = setTimeout(() => {
      if (finish()) resolve(STALLED);
    }, idleMs);
    req.on('data', (chunk: Buffer) => {
      if (done) return;
      idle.refresh();
      size += chunk.length;
      if (size > limit) {
        finish();
        resolve(TOO_LARGE);
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => {
      if (finish()) resolve(Buffer.concat(chunks));
    });
    req.on('error', (error) => {
      if (finish()) reject(error);
    });
    req.on('close', () => clearTimeout(idle));
  });
}

function tooLarge(res: ServerResponse, req: IncomingMessage, opts: AdapterOptions): void {
  lingerOnClose(req.socket, opts.linger);
  res.setHeader('Connection', 'close');
  plain(res, 413, `Content Too Large: the request body exceeds the limit of ${opts.bodyLimit} bytes.`);
  req.resume();
}

function stalled(res: ServerResponse, idleMs: number): void {
  res.setHeader('Connection', 'close');
  plain(
    res,
    408,
    `Request Timeout: the request body made no progress for ${idleMs >= 1000 ? `${idleMs / 1000} s` : `${idleMs} ms`}.`,
  );
}

function plain(res: ServerResponse, status: number, message: string): void {
  if (res.headersSent) return;
  const body = `${message}\n`;
  res.writeHead(status, reasonPhrase(status), {
    'Content-Type': 'text/plain; charset=UTF-8',
    'Content-Length': Buffer.byteLength(body),
    'X-Content-Type-Options': 'nosniff',
  });
  res.end(body);
}

function truncate(text: string): string {
  return text.length > 80 ? `${text.slice(0, 80)}...` : text;
}

/** A header value in quotes, cut short, every byte outside printable ASCII escaped. */
function quoted(text: string): string {
  return JSON.stringify(truncate(text)).replace(
    /[\u007f-\uffff]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

function misdirected(host: string, policy: HostPolicy): string {
  return (
    `Misdirected Request: this server does not answer to the Host ${quoted(host)}. It answers to ${policy.names.join(', ')} (any port); ` +
    'to accept another name, start it with --allow-host <name>.'
  );
}

/** Sends the response: at once, or a promise while a stream body flows. */
function write(res: ServerResponse, request: Request, response: Response, debug: boolean): Promise<void> | undefined {
  const head = request.method === 'HEAD';
  const body = response.body;
  if (body instanceof Readable) return pipeBody(res, request, response, body, head, debug);
  // A string body goes out in the same write as the head; a Buffer would cost a writev of two.
  const payload = body ?? '';
  if (response.header('content-length') === undefined) {
    response.headers['Content-Length'] = String(
      typeof payload === 'string' ? Buffer.byteLength(payload) : payload.length,
    );
  }
  try {
    res.writeHead(response.status, reasonPhrase(response.status), response.headers);
  } catch (error) {
    refuse(res, request, response, error, { debug, head });
    return undefined;
  }
  res.end(head ? undefined : payload);
  return undefined;
}

const PRODUCTION_500 = 'Oops! An Error Occurred\nThe server returned a "500 Internal Server Error".';
/** The headers the kernel adds in debug mode, kept on the 500 that replaces a refused response so that its profile can be found. */
const DEBUG_HEADER = /^x-debug-token(-link)?$/i;

/**
 * Answers 500 in place of a response node:http refused to write (a header value outside
 * Latin-1 or holding CR/LF, a name that is not a token, a status it does not accept).
 * Nothing was sent yet; the request's log says which header and why, and `response`
 * becomes the 500 sent, so the request line and the profile tell what the client got.
 */
function refuse(
  res: ServerResponse,
  request: Request,
  response: Response,
  error: unknown,
  how: { debug: boolean; head: boolean },
): void {
  const refused = findRefusedHeader(response.headers);
  const why = refused
    ? `the header ${JSON.stringify(refused.name)} cannot be sent: ${refused.why}`
    : `node:http refused its head: ${String((error as Error)?.message ?? error)}`;
  request.logger
    .withChannel('request')
    .critical('The response could not be sent, the client got a 500 instead: {why}.', {
      why,
      ...(refused ? { header: refused.name } : {}),
      status: response.status,
    });
  const text = `${how.debug ? `Internal Server Error: the response could not be sent: ${why}.` : PRODUCTION_500}\n`;
  const headers: Record<string, string> = {};
  for (const name in response.headers)
    if (DEBUG_HEADER.test(name) && findRefusedHeader({ [name]: response.headers[name] }) === null)
      headers[name] = response.headers[name];
  headers['Content-Type'] = 'text/plain; charset=UTF-8';
  response.status = 500;
  response.headers = headers;
  response.body = text;
  res.writeHead(500, reasonPhrase(500), { ...headers, 'Content-Length': String(Buffer.byteLength(text)) });
  res.end(how.head ? undefined : text);
}

/**
 * Sends a stream body. The head leaves with the first chunk, so a stream that
 * fails before it is answered 500 (and profiled as such); one that fails later
 * cuts the response. Either way the request's log says why.
 */
function pipeBody(
  res: ServerResponse,
  request: Request,
  response: Response,
  body: Readable,
  head: boolean,
  debug: boolean,
): Promise<void> {
  res.statusCode = response.status;
  res.statusMessage = reasonPhrase(response.status);
  try {
    for (const [name, value] of Object.entries(response.headers)) res.setHeader(name, value);
  } catch (error) {
    for (const name of res.getHeaderNames()) res.removeHeader(name);
    body.destroy();
    refuse(res, request, response, error, { debug, head });
    return Promise.resolve();
  }
  if (head) {
    body.destroy();
    res.end();
    return Promise.resolve();
  }
  return new Promise<void>((resolve) => {
    const log = request.logger.withChannel('request');
    const fail = (error: unknown) => {
      const message = String((error as Error)?.message ?? error);
      if (res.headersSent) {
        log.error('The response body stream failed after the headers were sent: {message}', { message });
        res.destroy();
      } else {
        log.critical('The response body stream failed before its first byte: {message}', { message });
        response.status = 500;
        plain(res, 500, 'Internal Server Error: the response body could not be produced.');
      }
      resolve();
    };
    // A stream that failed or was destroyed before it was piped would never end the response.
    if (body.destroyed) return fail(body.errored ?? new Error('the stream was destroyed before it was sent'));
    // The client left while an asynchronous controller made the response: the close below has been, and
    // a body that would go on producing (a live stream polling its store) is stopped now.
    if (res.destroyed || res.socket?.destroyed === true) {
      body.destroy();
      resolve();
      return;
    }
    body.on('error', fail);
    res.on('close', () => {
      // The client left before the end: a body that would go on producing is stopped.
      if (!body.readableEnded) body.destroy();
      resolve();
    });
    body.pipe(res);
  });
}
