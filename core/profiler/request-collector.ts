import type { RequestFacts as Request, ResponseFacts as Response } from './request-facts.js';
import { bodyFingerprint } from './body-fingerprint.js';
import type { BodyData, BodyStructure, RequestData } from './profile.js';
import {
  redactBody,
  redactPath,
  redactQueryString,
  redactRecord,
  redactRouteParams,
  redactText,
  SecretValues,
} from '../redaction/index.js';
import { DescribedBody, OpaqueBody } from './request-facts.js';
import { isPreviewable, PREVIEW_BYTES } from '../http/previewable-type.js';
import { BoundedCache } from '../bounded-cache.js';

export const BODY_CAP = 16 * 1024;
/** How much of a text response body a profile keeps for its preview. */
export const RESPONSE_BODY_CAP = PREVIEW_BYTES;

/** The first bytes of a text body the preview reads (one past the cap, to know it was cut); empty for other bodies. */
export function previewHead(contentType: string | null, body: string | Buffer): Buffer {
  if (!isPreviewable(contentType)) return Buffer.alloc(0);
  // Every character is at least one byte: RESPONSE_BODY_CAP + 1 characters hold the bytes the preview reads.
  if (typeof body === 'string')
    return Buffer.from(body.length > RESPONSE_BODY_CAP + 1 ? body.slice(0, RESPONSE_BODY_CAP + 1) : body);
  return body.subarray(0, RESPONSE_BODY_CAP + 1);
}

/**
 * The secret values a request carries by name (headers, query, cookies, route parameters) and its raw
 * path's redacted form: what the terminal scrubs from a log line of that request, as the store does.
 */
export function requestSecretValues(request: Pick<Request, 'headers' | 'query' | 'path' | 'attributes'>): SecretValues {
  const secrets = new SecretValues();
  const redacted: string[] = [];
  redactRouteParams(request.attributes, redacted, secrets);
  redactRecord('header', request.headers, redacted, secrets);
  redactRecord('query', request.query, redacted, secrets);
  redactRecord('cookie', parseCookies(request.headers.cookie), redacted, secrets);
  secrets.replacePath(request.path, redactPath(request.path, request.attributes));
  return secrets;
}

/**
 * The request panel's data, with every secret replaced by REDACTED before it leaves this function;
 * the secret values met are added to `secrets`, to be followed into the log and the exception.
 */
export function collectRequest(
  request: Request,
  response: Response,
  secrets = new SecretValues(),
  token: string | null = null,
): RequestData {
  const redacted: string[] = [];
  const routeParams = redactRouteParams(request.attributes, redacted, secrets);
  const headers = redactRecord('header', request.headers, redacted, secrets) as Record<string, string>;
  const query = redactRecord('query', request.query, redacted, secrets);
  const cookies = redactRecord('cookie', parseCookies(request.headers.cookie), redacted, secrets) as Record<
    string,
    string
  >;
  const cleanResponseHeaders = redactRecord('header', response.headers, redacted, secrets) as Record<string, string>;
  const path = redactPath(request.path, request.attributes);
  const queryString = redactQueryString(request.queryString);
  const url = `${request.baseUrl}${path}${queryString ? `?${queryString}` : ''}`;
  secrets.replacePath(request.path, path);
  let body: RequestData['body'] = null;
  if (request.bodySize > 0) {
    const contentType = request.headers['content-type'] ?? null;
    const truncated = request.bodySize > BODY_CAP;
    const text = request.body.subarray(0, BODY_CAP).toString('utf8');
    body = {
      size: request.bodySize,
      contentType: contentType && redactText(contentType),
      truncated,
      text: redactBody(contentType, text, redacted, (value) => secrets.add(value)),
    };
  }
  const bodyValue = response.body;
  const described = bodyValue instanceof DescribedBody ? bodyValue : null;
  const size =
    typeof bodyValue === 'string'
      ? Buffer.byteLength(bodyValue)
      : Buffer.isBuffer(bodyValue)
        ? bodyValue.length
        : bodyValue instanceof OpaqueBody
          ? bodyValue.size
          : described
            ? described.size
            : null;
  const responseBody = described
    ? described.preview
    : size === null
      ? null
      : responseBodyPreview(response.header('content-type') ?? null, bodyValue, size, redacted, secrets);
  return {
    method: request.method,
    url: secrets.scrub(url),
    server: request.serverAddress,
    path,
    route: request.attributes.route,
    routeParams,
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
      title: described
        ? described.title
        : typeof bodyValue === 'string' && response.isHtml()
          ? redactTitle(pageTitle(bodyValue), secrets)
          : null,
      structure: described
        ? described.structure
        : bodyStructure(response.header('content-type') ?? null, bodyValue, token),
      body: responseBody,
    },
    redacted,
  };
}

/**
 * The start of a text response body, redacted as the request's body is (its findings listed as
 * "response body <path>", not followed into other texts) and scrubbed of the secret values the
 * request carried; null for other bodies.
 */
function responseBodyPreview(
  contentType: string | null,
  value: unknown,
  size: number,
  redacted: string[],
  secrets: SecretValues,
): BodyData | null {
  if (size === 0 || !isPreviewable(contentType)) return null;
  const headText =
    typeof value === 'string' && value.length * 3 <= RESPONSE_BODY_CAP && isWellFormed(value)
      ? value
      : previewText(contentType, value);
  return headText === null ? null : textPreview(contentType, headText, size, redacted, secrets);
}

/**
 * The preview of a text answer an outgoing call received, from its first bytes (`head`, up to one past the
 * cap), under the rules of the response's preview; null for other bodies.
 */
export function receivedBodyPreview(
  contentType: string | null,
  head: Buffer,
  size: number,
  redacted: string[],
  secrets: SecretValues,
): BodyData | null {
  if (size === 0 || !isPreviewable(contentType)) return null;
  return textPreview(contentType, head.subarray(0, RESPONSE_BODY_CAP).toString('utf8'), size, redacted, secrets);
}

function textPreview(
  contentType: string | null,
  headText: string,
  size: number,
  redacted: string[],
  secrets: SecretValues,
): BodyData {
  // What the response itself holds secret is redacted here only: followed elsewhere, a profile's token in a
  // JSON answer (the profiler's own `.json`) would be scrubbed from the request's URL.
  const { text, found } = redactedPreview(contentType, headText);
  for (const where of found) redacted.push(`response ${where}`);
  return {
    size,
    contentType: contentType && redactText(contentType),
    truncated: size > RESPONSE_BODY_CAP,
    text: secrets.scrub(text),
  };
}

/** No lone surrogate (which UTF-8 would turn into U+FFFD): String.prototype.isWellFormed, which Node 20 has. */
const isWellFormed = (text: string): boolean => (text as unknown as { isWellFormed(): boolean }).isWellFormed();

/**
 * The first RESPONSE_BODY_CAP bytes of the body, decoded. A short well-formed string (its UTF-8 within
 * the cap) is that text itself, which the caller takes without the round trip through bytes.
 */
function previewText(contentType: string | null, value: unknown): string | null {
  const head =
    typeof value === 'string' || Buffer.isBuffer(value)
      ? previewHead(contentType, value)
      : value instanceof OpaqueBody
        ? value.head
        : null;
  return head === null ? null : head.subarray(0, RESPONSE_BODY_CAP).toString('utf8');
}

/**
 * The last few response bodies met, by content type and text: an answer given again and again (a
 * JSON 404's problem document, an API's constant reply) is redacted and fingerprinted once. Emptied when
 * full; texts longer than the preview's cap are not kept.
 */
const MEMO_ENTRIES = 32;
const previews = new BoundedCache<string, { text: string; found: readonly string[] }>(MEMO_ENTRIES);
const structures = new BoundedCache<string, BodyStructure | null>(MEMO_ENTRIES);

function remembered<T>(memo: BoundedCache<string, T>, key: string, make: () => T): T {
  const value = memo.get(key);
  return value === undefined && !memo.has(key) ? memo.set(key, make()) : (value as T);
}

/** redactBody() of a response preview: a function of its content type and text alone. */
function redactedPreview(contentType: string | null, head: string): { text: string; found: readonly string[] } {
  return remembered(previews, `${contentType ?? ''}\n${head}`, () => {
    const found: string[] = [];
    return { text: redactBody(contentType, head, found), found };
  });
}

/** bodyFingerprint(), kept for a text body that does not hold the token (the token is the one input besides the text). */
function bodyStructure(contentType: string | null, body: unknown, token: string | null): BodyStructure | null {
  if (typeof body !== 'string' || body.length > RESPONSE_BODY_CAP || (token !== null && body.includes(token)))
    return bodyFingerprint(contentType, body, token);
  return remembered(structures, `${contentType ?? ''}\n${body}`, () => bodyFingerprint(contentType, body, token));
}

export function parseCookies(header: string | undefined): Record<string, string> {
  const cookies: Record<string, string> = Object.create(null);
  if (!header) return cookies;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    const name = (eq === -1 ? part : part.slice(0, eq)).trim();
    if (name) cookies[name] = eq === -1 ? '' : part.slice(eq + 1).trim();
  }
  return cookies;
}

/** A title can quote the request (a 404 page, "Redirecting to <url>"): it follows the same policy as messages. */
function redactTitle(title: string | null, secrets: SecretValues): string | null {
  return title === null ? null : secrets.scrub(redactText(title));
}

/** An HTML page's <title>, as the request panel shows it before redaction (redactTitle). */
export function pageTitle(html: string): string | null {
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
