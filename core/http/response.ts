import { escapeHtml } from './escape-html.js';
import { STATUS_CODES } from 'node:http';
import type { Readable } from 'node:stream';

export type Body = string | Buffer | Readable | null;

const REASONS: Record<number, string> = {
  200: 'OK',
  201: 'Created',
  202: 'Accepted',
  204: 'No Content',
  206: 'Partial Content',
  301: 'Moved Permanently',
  302: 'Found',
  303: 'See Other',
  304: 'Not Modified',
  307: 'Temporary Redirect',
  308: 'Permanent Redirect',
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  406: 'Not Acceptable',
  408: 'Request Timeout',
  409: 'Conflict',
  410: 'Gone',
  413: 'Content Too Large',
  414: 'URI Too Long',
  415: 'Unsupported Media Type',
  416: 'Range Not Satisfiable',
  421: 'Misdirected Request',
  422: 'Unprocessable Content',
  429: 'Too Many Requests',
  431: 'Request Header Fields Too Large',
  500: 'Internal Server Error',
  501: 'Not Implemented',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
};

/** RFC 9110's phrase (REASONS), else Node's (418 "I'm a Teapot", 451, ...), else the class's. */
export function reasonPhrase(status: number): string {
  return (
    REASONS[status] ??
    STATUS_CODES[status] ??
    (status >= 500 ? 'Server Error' : status >= 400 ? 'Client Error' : 'Unknown')
  );
}

/** Whether a header name is `lower` in any case: no lower-cased copy made of a name of another length. */
function sameName(name: string, lower: string): boolean {
  return name.length === lower.length && (name === lower || name.toLowerCase() === lower);
}

function withoutJsonForm(data: unknown): string {
  if (typeof data === 'function' || typeof data === 'symbol') return `a ${typeof data}`;
  return data === undefined ? 'undefined' : 'a value whose toJSON() returns undefined';
}

/** What a controller or listener answers; headers are kept with their given case. */
export class Response {
  constructor(
    public body: Body = '',
    public status = 200,
    public headers: Record<string, string> = {},
  ) {}

  static html(html: string, status = 200, headers?: Record<string, string>): Response {
    return new Response(
      html,
      status,
      headers === undefined
        ? { 'Content-Type': 'text/html; charset=UTF-8' }
        : { 'Content-Type': 'text/html; charset=UTF-8', ...headers },
    );
  }

  static text(text: string, status = 200, headers?: Record<string, string>): Response {
    return new Response(
      text,
      status,
      headers === undefined
        ? { 'Content-Type': 'text/plain; charset=UTF-8' }
        : { 'Content-Type': 'text/plain; charset=UTF-8', ...headers },
    );
  }

  /** Throws a TypeError for a value JSON has no text for (undefined, a function, a symbol), rather than answer an empty body. */
  static json(data: unknown, status = 200, headers?: Record<string, string>): Response {
    const text = JSON.stringify(data) as string | undefined;
    if (text === undefined)
      throw new TypeError(`Response.json() cannot send ${withoutJsonForm(data)}: it has no JSON form.`);
    return new Response(
      text,
      status,
      headers === undefined
        ? { 'Content-Type': 'application/json' }
        : { 'Content-Type': 'application/json', ...headers },
    );
  }

  static redirect(url: string, status = 302, headers: Record<string, string> = {}): Response {
    const target = escapeHtml(url);
    const body =
      `<!DOCTYPE html>\n<html><head><meta charset="UTF-8"><meta http-equiv="refresh" content="0;url='${target}'"><title>Redirecting to ${target}</title></head>` +
      `<body>Redirecting to <a href="${target}">${target}</a>.</body></html>`;
    return new Response(body, status, { Location: url, 'Content-Type': 'text/html; charset=UTF-8', ...headers });
  }

  static stream(stream: Readable, contentType = 'application/octet-stream', status = 200): Response {
    return new Response(stream, status, { 'Content-Type': contentType });
  }

  get statusText(): string {
    return reasonPhrase(this.status);
  }

  header(name: string): string | undefined {
    const lower = name.toLowerCase();
    for (const key in this.headers) if (sameName(key, lower)) return this.headers[key];
    return undefined;
  }

  setHeader(name: string, value: string): this {
    const lower = name.toLowerCase();
    for (const key in this.headers) if (sameName(key, lower)) delete this.headers[key];
    this.headers[name] = value;
    return this;
  }

  isRedirect(): boolean {
    return this.status >= 300 && this.status < 400 && this.header('location') !== undefined;
  }

  isHtml(): boolean {
    return (this.header('content-type') ?? '').startsWith('text/html');
  }
}
