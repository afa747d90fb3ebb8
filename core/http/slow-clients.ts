import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { plainAnswerBytes, type PlainAnswer } from './client-error.js';

export interface SlowClientLimits {
  /** open connections beyond which a new one takes the place of the oldest incomplete request, or is refused */
  maxConnections: number;
  /** bytes per second a request (head and body) must keep arriving at, judged over windows of `graceMs`; 0: not judged */
  minRequestRate: number;
  /** ms of each window, the first one starting with the request */
  graceMs: number;
}

/**
 * Where a connection stands: `silent` has sent nothing yet; `head` has sent part of a request head;
 * `body` has a head and is sending its body; `answering` has sent its whole request (or was
 * answered before the end of its body); `idle` was answered and waits on keep-alive.
 */
type Phase = 'silent' | 'head' | 'body' | 'answering' | 'idle';

interface Connection {
  socket: Socket;
  /** socket.bytesRead when the last answer went out: the bytes of earlier requests */
  bytesBefore: number;
  /** requests received whose answer has not gone out yet, and the latest of them */
  unanswered: number;
  latest: { req: IncomingMessage; res: ServerResponse } | null;
  answeredOne: boolean;
  /** when the window being judged began (for a new connection, when it opened); 0: no request begun since the last answer */
  windowStart: number;
  /** socket.bytesRead when it began */
  windowBytes: number;
  /** when the current request began, as far as the sweeps saw */
  requestStart: number;
}

/** ms the 408 of a closed connection has to go out before the socket is destroyed regardless */
const ANSWER_FLUSH_MS = 1_000;

const EVICTED: PlainAnswer = {
  status: 408,
  text: 'Request Timeout',
  why: 'the server is at its connection limit and this request was still incomplete',
};

/**
 * Keeps slow clients from holding the server's connections. A request (head and body) arriving
 * slower than `minRequestRate` over a window of `graceMs` is answered 408 and closed; when
 * `maxConnections` are open, a new connection closes the oldest one that has not delivered a whole
 * request (408 too, when it had begun one) and takes its place; it is refused only when every open
 * connection is being answered or waits on keep-alive. node:http's headersTimeout and
 * requestTimeout still bound every request.
 */
export function guardAgainstSlowClients(server: Server, limits: SlowClientLimits): void {
  const open = new Map<Socket, Connection>();
  const tooSlow: PlainAnswer = {
    status: 408,
    text: 'Request Timeout',
    why: `the request arrived slower than ${limits.minRequestRate} bytes per second`,
  };
  let ticker: NodeJS.Timeout | null = null;

  const close = (c: Connection, answer: PlainAnswer): void => {
    open.delete(c.socket);
    const p = phase(c);
    if ((p === 'head' || p === 'body') && c.socket.writable) {
      // In `body` the adapter then sees its request aborted; its own answer finds the socket gone.
      c.socket.end(plainAnswerBytes(answer), () => c.socket.destroy());
      // A client that reads nothing would keep the answer from ever going out, and the socket open.
      setTimeout(() => c.socket.destroy(), ANSWER_FLUSH_MS).unref();
    } else {
      c.socket.destroy();
    }
  };

  const sweep = (): void => {
    const now = Date.now();
    for (const c of open.values()) {
      const p = phase(c);
      if (p !== 'head' && p !== 'body') continue;
      if (c.windowStart === 0) {
        c.requestStart = now;
        restartWindow(c, now, c.bytesBefore);
      }
      if (now - c.windowStart < limits.graceMs) continue;
      if (c.socket.bytesRead - c.windowBytes < (limits.minRequestRate * (now - c.windowStart)) / 1000)
        close(c, tooSlow);
      else restartWindow(c, now, c.socket.bytesRead);
    }
    if (open.size === 0 && ticker) {
      clearInterval(ticker);
      ticker = null;
    }
  };

  const oldestIncomplete = (): Connection | null => {
    let oldest: Connection | null = null;
    for (const c of open.values()) {
      const p = phase(c);
      if ((p === 'silent' || p === 'head' || p === 'body') && (oldest === null || c.requestStart < oldest.requestStart))
        oldest = c;
    }
    return oldest;
  };

  server.on('connection', (socket: Socket) => {
    if (open.size >= limits.maxConnections) {
      const victim = oldestIncomplete();
      if (victim === null) {
        socket.destroy();
        return;
      }
      close(victim, EVICTED);
    }
    const now = Date.now();
    open.set(socket, {
      socket,
      bytesBefore: 0,
      unanswered: 0,
      latest: null,
      answeredOne: false,
      windowStart: now,
      windowBytes: 0,
      requestStart: now,
    });
    socket.once('close', () => open.delete(socket));
    if (ticker === null && limits.minRequestRate > 0) {
      ticker = setInterval(sweep, Math.max(10, Math.min(250, Math.floor(limits.graceMs / 4))));
      ticker.unref();
    }
  });
  // First among the request listeners: an answer written within the adapter's listener must find its request counted.
  server.prependListener('request', (req: IncomingMessage, res: ServerResponse) => {
    const c = open.get(req.socket);
    if (c === undefined) return;
    c.unanswered++;
    c.latest = { req, res };
    res.once('finish', () => {
      if (--c.unanswered > 0) return;
      c.latest = null;
      c.answeredOne = true;
      c.bytesBefore = c.socket.bytesRead;
      c.windowStart = 0;
      c.requestStart = Number.MAX_SAFE_INTEGER;
    });
  });
  server.once('close', () => {
    if (ticker) clearInterval(ticker);
    ticker = null;
  });
}

function phase(c: Connection): Phase {
  if (c.unanswered > 0 && c.latest) return !c.latest.req.complete && !c.latest.res.headersSent ? 'body' : 'answering';
  if (c.socket.bytesRead > c.bytesBefore) return 'head';
  return c.answeredOne ? 'idle' : 'silent';
}

function restartWindow(c: Connection, now: number, bytes: number): void {
  c.windowStart = now;
  c.windowBytes = bytes;
}
