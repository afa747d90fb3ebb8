import type { RequestFacts as Request, ResponseFacts as Response } from './request-facts.js';
import { bodyFingerprint } from './body-fingerprint.js';
import type { RequestData } from './profile.js';
import { REDACTED, redactBody, redactRecord } from './redact.js';
import { OpaqueBody } from './request-facts.js';

export const BODY_CAP = 16 * 1024;

/** The request panel's data, with every secret replaced by REDACTED before it leaves this function. */
export function collectRequest(request: Request, response: Response): RequestData {
  const redacted: string[] = [];
  const headers = redactRecord('header', request.headers, redacted) as Record<string, string>;
  const query = redactRecord('query', request.query, redacted);
  const cookies = redactRecord('cookie', parseCookies(request.headers.cookie), redacted) as Record<string, string>;
  const responseHeaders: Record<string, string> = {};
  for (const [name, value] of Object.entries(response.headers)) responseHeaders[name] = value;
  const cleanResponseHeaders = redactRecord('header', responseHeaders, redacted) as Record<string, string>;
  let body: RequestData['body'] = null;
  if (request.bodySize > 0) {
    const contentType = request.headers['content-type'] ?? null;
    const truncated = request.bodySize > BODY_CAP;
    const text = request.body.subarray(0, BODY_CAP).toString('utf8');
    body = { size: request.bodySize, contentType, truncated, text: redactBody(contentType, text, redacted) };
  }
  const bodyValue = response.body;
  const size = typeof bodyValue === 'string' ? Buffer.byteLength(bodyValue) : Buffer.isBuffer(bodyValue) ? bodyValue.length
    : bodyValue instanceof OpaqueBody ? bodyValue.size : null;
  return {
    method: request.method,
    url: request.url,
    server: request.serverAddress,
    path: request.path,
    route: request.attributes.route,
    routeParams: request.attributes.params,
    controller: request.attributes.controller,
    query,
    headers,
    cookies,
    body,
    response: {
      status: response.status,
      statusText: response.statusText,
      headers: cleanResponseHeaders,
      size,
      contentType: response.header('content-type') ?? null,
      title: typeof bodyValue === 'string' && response.isHtml() ? pageTitle(bodyValue) : null,
      structure: bodyFingerprint(response.header('content-type') ?? null, bodyValue, request.token),
    },
    redacted,
  };
}

function parseCookies(header: string | undefined): Record<string, string> {
  const cookies: Record<string, string> = {};
  if (!header) return cookies;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    const name = (eq === -1 ? part : part.slice(0, eq)).trim();
    if (name) cookies[name] = REDACTED;
  }
  return cookies;
}

function pageTitle(html: string): string | null {
  const m = /<title[^>]*>([^<]*)<\/title>/i.exec(html.slice(0, 4096));
  return m ? decodeEntities(m[1].trim()) : null;
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0' };

/** The title as the browser shows it: "&quot;GET /x&quot;" -> "\"GET /x\"". */
function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#[0-9]+|[a-z]+);/gi, (whole, name: string) => {
    if (name[0] !== '#') return ENTITIES[name.toLowerCase()] ?? whole;
    const code = name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : Number(name.slice(1));
    return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
  });
}
