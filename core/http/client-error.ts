import { METHODS } from 'node:http';
import type { Socket } from 'node:net';

/** node's parser error, as its 'clientError' event gives it. */
export type ParserError = NodeJS.ErrnoException & { reason?: string; rawPacket?: Buffer; bytesParsed?: number };

export interface PlainAnswer {
  status: number;
  text: string;
  /** what is wrong, one sentence without the final period */
  why: string;
}

const TOKEN = "[!#$%&'*+.^_`|~0-9A-Za-z-]{1,32}";
/** The start of a request line, possibly cut short: method and (part of) the target. */
const LINE_START = new RegExp(`^(${TOKEN}) ([^ \\r\\n]*)`);
/** A whole request line whose only fault can be its method. */
const WHOLE_LINE = new RegExp(`^(${TOKEN}) [^ \\r\\n]+ HTTP/\\d\\.\\d\\r?\\n`);

/**
 * The answer to a request node's HTTP parser refused, naming what is wrong.
 * `limits` are the server's: a request line too long for the header buffer is
 * a URI too long (414), not a header overflow (431).
 */
export function describeClientError(
  error: ParserError,
  limits: { maxHeaderSize: number; maxUrlLength: number },
): PlainAnswer {
  const reason = error.reason ? ` (${error.reason})` : '';
  const packet = error.rawPacket?.subarray(0, 64 * 1024).toString('latin1') ?? '';
  switch (error.code) {
    case 'HPE_HEADER_OVERFLOW': {
      const start = LINE_START.exec(packet);
      if (start && start[2].length > limits.maxUrlLength) {
        return {
          status: 414,
          text: 'URI Too Long',
          why: `the request target is longer than the limit of ${limits.maxUrlLength} characters`,
        };
      }
      return {
        status: 431,
        text: 'Request Header Fields Too Large',
        why: `the request headers exceed ${limits.maxHeaderSize} bytes`,
      };
    }
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return { status: 408, text: 'Request Timeout', why: 'the request did not arrive in time' };
    case 'HPE_INVALID_METHOD': {
      // Pipelined requests share a packet: the bad line starts where parsing stopped.
      const lineStart = packet.lastIndexOf('\n', (error.bytesParsed ?? 0) - 1) + 1;
      const line = WHOLE_LINE.exec(packet.slice(lineStart));
      if (line && !METHODS.includes(line[1]))
        return { status: 501, text: 'Not Implemented', why: `the method "${line[1]}" is not one this server knows` };
      return { status: 400, text: 'Bad Request', why: `the request line does not start with an HTTP method${reason}` };
    }
    case 'HPE_INVALID_URL': {
      const start = LINE_START.exec(packet.slice(packet.lastIndexOf('\n', (error.bytesParsed ?? 0) - 1) + 1));
      const target = start?.[2] ?? '';
      // A target must be a path ("/a"), an absolute URL ("http://h/a"), an authority (CONNECT) or "*".
      if (target !== '' && !/^[/*]/.test(target) && !/^[A-Za-z][A-Za-z0-9+.-]*:/.test(target)) {
        return {
          status: 400,
          text: 'Bad Request',
          why: `the request target must start with "/" (or be an absolute URL)${reason}`,
        };
      }
      return {
        status: 400,
        text: 'Bad Request',
        why: `the request target is malformed${reason}: control characters, spaces and bytes above 0x7F must be percent-encoded`,
      };
    }
    case 'HPE_INVALID_HEADER_TOKEN':
      return {
        status: 400,
        text: 'Bad Request',
        why: `a header name or value holds a character not allowed there${reason}`,
      };
    case 'HPE_INVALID_CONTENT_LENGTH':
    case 'HPE_UNEXPECTED_CONTENT_LENGTH':
      return { status: 400, text: 'Bad Request', why: `the Content-Length header is malformed or repeated${reason}` };
    case 'HPE_INVALID_TRANSFER_ENCODING':
      return { status: 400, text: 'Bad Request', why: `the Transfer-Encoding header cannot be accepted${reason}` };
    case 'HPE_INVALID_CHUNK_SIZE':
      return { status: 400, text: 'Bad Request', why: `the chunked body is malformed${reason}` };
    case 'HPE_INVALID_VERSION': {
      // A well-formed version this server does not speak (HTTP/1.2, HTTP/2.0 on a cleartext HTTP/1 port) is a 505.
      const version = / HTTP\/(\d\.\d)\r?\n/.exec(
        packet.slice(packet.lastIndexOf('\n', (error.bytesParsed ?? 0) - 1) + 1),
      )?.[1];
      if (version !== undefined && version !== '1.0' && version !== '1.1') {
        return {
          status: 505,
          text: 'HTTP Version Not Supported',
          why: `HTTP/${version} (this server speaks HTTP/1.0 and HTTP/1.1)`,
        };
      }
      return { status: 400, text: 'Bad Request', why: `the request line is malformed${reason}` };
    }
    case 'HPE_INVALID_CONSTANT':
      return { status: 400, text: 'Bad Request', why: `the request line is malformed${reason}` };
    default:
      return { status: 400, text: 'Bad Request', why: `the request could not be parsed${reason}` };
  }
}

/** Writes a plain-text answer straight to the socket and closes it (no request object exists). */
export function endWithPlainAnswer(socket: Socket, answer: PlainAnswer): void {
  socket.end(plainAnswerBytes(answer));
}

/** The whole HTTP/1.1 message of a plain answer, `Connection: close` included. */
export function plainAnswerBytes(answer: PlainAnswer): string {
  const body = `${answer.text}: ${answer.why}.\n`;
  return (
    `HTTP/1.1 ${answer.status} ${answer.text}\r\nContent-Type: text/plain; charset=UTF-8\r\nX-Content-Type-Options: nosniff\r\n` +
    `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`
  );
}
