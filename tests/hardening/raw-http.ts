import { connect } from 'node:net';

export interface RawAnswer {
  status: number;
  /** header names lower-cased; repeated headers joined with ", " */
  headers: Record<string, string>;
  body: string;
}

/**
 * Sends `bytes` as they are over a fresh TCP connection and reads one
 * response: complete once its Content-Length is in, or when the server closes.
 * `head`: the request is a HEAD, whose answer has no body as a rule: read until the server closes (send `Connection: close`).
 * No HTTP client touches the bytes, so malformed requests arrive malformed.
 */
export function sendRaw(base: string, bytes: string | Buffer, options: { head?: boolean } = {}): Promise<RawAnswer> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.write(bytes));
    let received = Buffer.alloc(0);
    let settled = false;
    const finish = (closed: boolean) => {
      if (settled) return;
      const answer = parseResponse(received, closed, options.head ?? false);
      if (!answer) {
        if (closed) {
          settled = true;
          reject(
            new Error(
              `the server closed the connection without a complete response (${received.length} bytes: ${JSON.stringify(received.toString('latin1').slice(0, 200))})`,
            ),
          );
        }
        return;
      }
      settled = true;
      socket.destroy();
      resolve(answer);
    };
    socket.on('data', (chunk: Buffer) => {
      received = Buffer.concat([received, chunk]);
      finish(false);
    });
    socket.on('end', () => finish(true));
    socket.on('close', () => finish(true));
    // The server may answer and close before it has read all we sent (413, 431): a reset then is no failure.
    socket.on('error', () => finish(true));
  });
}

function parseResponse(data: Buffer, closed: boolean, head: boolean): RawAnswer | null {
  const end = data.indexOf('\r\n\r\n');
  if (end === -1) return null;
  const [statusLine, ...lines] = data.subarray(0, end).toString('latin1').split('\r\n');
  const status = /^HTTP\/1\.[01] (\d{3})/.exec(statusLine);
  if (!status) throw new Error(`not an HTTP response: ${JSON.stringify(statusLine)}`);
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    const name = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    headers[name] = headers[name] === undefined ? value : `${headers[name]}, ${value}`;
  }
  const rest = data.subarray(end + 4);
  // The answer to HEAD announces a length it may not send (a refusal written before the method was known does): wait for the close.
  if (head) return closed ? { status: Number(status[1]), headers, body: rest.toString('utf8') } : null;
  const length = headers['content-length'];
  if (length !== undefined) {
    if (rest.length < Number(length)) return null;
    return { status: Number(status[1]), headers, body: rest.subarray(0, Number(length)).toString('utf8') };
  }
  if (headers['transfer-encoding'] === 'chunked') {
    const body = dechunk(rest);
    return body === null ? null : { status: Number(status[1]), headers, body };
  }
  return closed ? { status: Number(status[1]), headers, body: rest.toString('utf8') } : null;
}

function dechunk(data: Buffer): string | null {
  const parts: Buffer[] = [];
  let at = 0;
  for (;;) {
    const lineEnd = data.indexOf('\r\n', at);
    if (lineEnd === -1) return null;
    const size = parseInt(data.subarray(at, lineEnd).toString('latin1'), 16);
    if (size === 0) return Buffer.concat(parts).toString('utf8');
    if (data.length < lineEnd + 2 + size + 2) return null;
    parts.push(data.subarray(lineEnd + 2, lineEnd + 2 + size));
    at = lineEnd + 2 + size + 2;
  }
}

/** A request head with CRLF line ends; `Connection: close` unless the headers say otherwise. */
export function requestHead(requestLine: string, headers: string[]): string {
  const all = headers.some((h) => /^connection:/i.test(h)) ? headers : [...headers, 'Connection: close'];
  return `${requestLine}\r\n${all.map((h) => `${h}\r\n`).join('')}\r\n`;
}

/** Sends `bytes` and returns everything the server sent until it closed the connection. */
export function sendRawUntilClose(base: string, bytes: string | Buffer): Promise<string> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve) => {
    const socket = connect(Number(port), hostname, () => socket.write(bytes));
    let received = '';
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => (received += chunk));
    socket.on('error', () => {});
    socket.on('close', () => resolve(received));
  });
}
