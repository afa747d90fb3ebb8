import { createServer, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { AdapterOptions, RequestHandler } from './node-adapter.js';
import { createNodeListener, DEFAULT_ADAPTER_OPTIONS, definedOnly } from './node-adapter.js';
import { defaultMaxConnections } from './connection-limit.js';
import { guardAgainstSlowClients } from './slow-clients.js';
import { describeClientError, endWithPlainAnswer, type ParserError } from './client-error.js';

export interface ServerTimeouts {
  /** ms to receive the complete headers (slowloris guard) */
  headersTimeout: number;
  /** ms to receive the complete request */
  requestTimeout: number;
  keepAliveTimeout: number;
  /** bytes of request headers (the request line included) before 431 */
  maxHeaderSize: number;
  /** ms between two sweeps for sockets past headersTimeout or requestTimeout: node enforces both only then (its default is 30 s) */
  connectionsCheckingInterval: number;
  /** ms a request body may go without a byte before it is answered 408 (requestTimeout bounds the whole request) */
  bodyIdleTimeout: number;
  /** open connections beyond which a new one replaces the oldest incomplete request, or is refused (closed at once); default: defaultMaxConnections() */
  maxConnections: number;
  /** bytes per second a request, head and body, must keep arriving at once slowRequestGrace has passed, else 408 (0: no minimum) */
  minRequestRate: number;
  /** ms over which the request rate is judged, from the request's first byte */
  slowRequestGrace: number;
}

export const DEFAULT_TIMEOUTS: ServerTimeouts = {
  headersTimeout: 10_000,
  requestTimeout: 30_000,
  keepAliveTimeout: 5_000,
  maxHeaderSize: 32 * 1024,
  connectionsCheckingInterval: 1_000,
  bodyIdleTimeout: DEFAULT_ADAPTER_OPTIONS.bodyIdleTimeout,
  maxConnections: defaultMaxConnections(),
  minRequestRate: 100,
  slowRequestGrace: 2_000,
};

/** A node:http server answering through the kernel `handler()` returns at each request. */
export function createAppServer(
  handler: () => RequestHandler,
  options: Partial<AdapterOptions & ServerTimeouts> = {},
): Server {
  const timeouts = { ...DEFAULT_TIMEOUTS, ...definedOnly(options) };
  const server = createServer(
    {
      maxHeaderSize: timeouts.maxHeaderSize,
      headersTimeout: timeouts.headersTimeout,
      requestTimeout: timeouts.requestTimeout,
      keepAliveTimeout: timeouts.keepAliveTimeout,
      connectionsCheckingInterval: timeouts.connectionsCheckingInterval,
      // The adapter answers a missing Host itself, with a message (node's own 400 has no body).
      requireHostHeader: false,
    },
    createNodeListener(handler, { ...options, bodyIdleTimeout: timeouts.bodyIdleTimeout }),
  );
  guardAgainstSlowClients(server, {
    maxConnections: timeouts.maxConnections,
    minRequestRate: timeouts.minRequestRate,
    graceMs: timeouts.slowRequestGrace,
  });
  server.on('clientError', (error: ParserError, socket: Socket) => {
    if (
      !socket.writable ||
      ((error as { bytesParsed?: number }).bytesParsed === undefined && error.code === 'ECONNRESET')
    ) {
      socket.destroy();
      return;
    }
    const answer = describeClientError(error, {
      maxHeaderSize: timeouts.maxHeaderSize,
      maxUrlLength: options.maxUrlLength ?? DEFAULT_ADAPTER_OPTIONS.maxUrlLength,
    });
    const pending = (socket as Socket & { _httpMessage?: ServerResponse | null })._httpMessage;
    if (pending && pending.req.complete) {
      // A good request pipelined before the bad one is still being answered, or its answer was just
      // written (still attached to the socket until its 'finish'): its response goes out first.
      pending.once('finish', () => endWithPlainAnswer(socket, answer));
    } else if (pending && pending.headersSent) {
      socket.destroy(); // the timed-out request's own answer had begun: nothing clean can follow it
    } else {
      endWithPlainAnswer(socket, answer);
    }
  });
  // Without a listener node drops a CONNECT silently; this server opens no tunnels.
  server.on('connect', (_request, socket: Socket) => {
    endWithPlainAnswer(socket, { status: 501, text: 'Not Implemented', why: 'this server opens no tunnels (CONNECT)' });
  });
  return server;
}
