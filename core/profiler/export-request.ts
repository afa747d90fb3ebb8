import { readStoredData } from './damaged-data.js';
import type { Profile } from './profile.js';
import { REDACTED } from '../redaction/index.js';
import { recordedTarget, replayOrigin } from './replay-origin.js';
import { shellQuote, showControls } from './shell-quote.js';

/** Request headers that a client computes itself and must not be replayed as recorded. */
export const HOP_HEADERS = new Set([
  'host',
  'content-length',
  'connection',
  'keep-alive',
  'transfer-encoding',
  'upgrade',
  'expect',
  'te',
  'trailer',
]);

export interface ReplayableRequest {
  method: string;
  /** scheme://host:port to send to (see replayOrigin) */
  origin: string;
  /** the path of the target the request is sent under ("/base"), '' for none */
  prefix: string;
  /** the recorded path and query, after `prefix`, as sent: a path on `origin` whatever it holds ("//other.host/x" too) */
  target: string;
  /** origin + target, to show */
  url: string;
  /** which recorded Host was not used, and where the request goes instead; null when it is the recorded one */
  originReplaced: string | null;
  headers: Record<string, string>;
  /** the body as stored: a redacted value replaced in place by REDACTED, a cut body's beginning; null without one */
  body: string | null;
  /** why `body` is not the body that was sent, e.g. "password redacted when recorded, left as [REDACTED]"; null when it is */
  bodyIncomplete: string | null;
  /** what was left out because its value was redacted when recorded: header names, "query <name>", "path parameter <name>" */
  omitted: string[];
  /** the body was cut when recorded, so it cannot be replayed as sent */
  bodyTruncated: boolean;
  /** the body's size in bytes as received (more than `body` holds when bodyTruncated); 0 without a body */
  bodySize: number;
}

/**
 * The recorded request, minus redacted values (never sent as placeholders) and hop-by-hop headers,
 * aimed at `target` or else at the server that recorded it (see replayOrigin, which says how it fails).
 */
export function replayableRequest(profile: Profile, target?: string): ReplayableRequest {
  return readStoredData(`The request recorded in profile "${profile.token}" cannot be sent or exported`, () =>
    recordedRequest(profile, target),
  );
}

function recordedRequest(profile: Profile, target?: string): ReplayableRequest {
  const data = profile.collectors.request;
  const headers: Record<string, string> = {};
  const omitted: string[] = [];
  for (const [name, value] of Object.entries(data.headers)) {
    if (HOP_HEADERS.has(name.toLowerCase())) continue;
    if (value.includes(REDACTED)) omitted.push(name);
    else headers[name] = value;
  }
  const { origin, prefix, replaced } = replayOrigin(profile, target);
  const path =
    prefix +
    withoutRedactedPath(withoutRedactedQuery(recordedTarget(profile), omitted), data.routeParams ?? {}, omitted);
  const stored = data.body !== null && !data.redacted.includes('body');
  const body = stored ? data.body!.text : null;
  return {
    method: profile.method,
    origin,
    prefix,
    target: path,
    url: origin + path,
    originReplaced: replaced,
    headers,
    body,
    bodyIncomplete: bodyIncompleteNote(data),
    omitted,
    bodyTruncated: data.body?.truncated ?? false,
    bodySize: data.body?.size ?? 0,
  };
}

/** Why the stored body is not the one received, in words: values redacted in place, cut at the cap, not stored at all; null when whole. */
function bodyIncompleteNote(data: Profile['collectors']['request']): string | null {
  if (data.body === null) return null;
  if (data.redacted.includes('body')) return 'not stored when recorded: it could not be redacted';
  const notes: string[] = [];
  if (data.body.text.includes(REDACTED)) {
    const fields = [
      ...new Set(
        data.redacted
          .filter((r) => r.startsWith('body ') || r.startsWith('form '))
          .map((r) => r.slice(r.indexOf(' ') + 1)),
      ),
    ];
    notes.push(`${fields.length ? fields.join(', ') : 'values'} redacted when recorded, left as ${REDACTED}`);
  }
  if (data.body.truncated)
    notes.push(
      `cut when recorded: only its first ${Buffer.byteLength(data.body.text)} of ${data.body.size} bytes kept`,
    );
  return notes.length ? notes.join('; ') : null;
}

/** What an export does not reproduce as recorded, one phrase each: redacted values left out, an incomplete body, another origin. */
function exportNotes(r: ReplayableRequest): string[] {
  const notes = r.omitted.length ? [`left out (redacted when recorded): ${r.omitted.join(', ')}`] : [];
  if (r.bodyIncomplete) notes.push(`body incomplete: ${r.bodyIncomplete}`);
  if (r.originReplaced) notes.push(r.originReplaced);
  return notes;
}

const ENCODED_REDACTED = encodeURIComponent(REDACTED);

/** The request target without the query pairs whose value was redacted; the other pairs stay byte for byte. */
function withoutRedactedQuery(url: string, omitted: string[]): string {
  const q = url.indexOf('?');
  if (q === -1) return url;
  const kept = url
    .slice(q + 1)
    .split('&')
    .filter((pair) => {
      const eq = pair.indexOf('=');
      const value = eq === -1 ? '' : pair.slice(eq + 1);
      if (!value.includes(REDACTED) && !value.includes(ENCODED_REDACTED)) return true;
      omitted.push(`query ${pair.slice(0, eq)}`);
      return false;
    });
  return kept.length ? `${url.slice(0, q)}?${kept.join('&')}` : url.slice(0, q);
}

/** The URL with the path segments redacted when recorded (a secret route parameter) left empty: never sent as a placeholder. */
function withoutRedactedPath(url: string, params: Record<string, string>, omitted: string[]): string {
  for (const [name, value] of Object.entries(params)) if (value === REDACTED) omitted.push(`path parameter ${name}`);
  const q = url.indexOf('?');
  const path = q === -1 ? url : url.slice(0, q);
  if (!path.includes(REDACTED) && !path.includes(ENCODED_REDACTED)) return url;
  return path.split(REDACTED).join('').split(ENCODED_REDACTED).join('') + (q === -1 ? '' : url.slice(q));
}

/**
 * A curl command line, to `target` or the server that recorded the request (see replayableRequest).
 * Redacted values are left out and named in a comment line, and so are a cut body and a replaced origin.
 * curl is told not to glob "[]{}" nor to squash "/../" in the URL, and gets the body with --data-raw,
 * which never reads a file for a body starting with "@".
 */
export function toCurl(profile: Profile, target?: string): string {
  const r = replayableRequest(profile, target);
  const parts = ['curl', '-X', /^[A-Za-z-]+$/.test(r.method) ? r.method : shellQuote(r.method)];
  if (/[[\]{}]/.test(r.target)) parts.push('--globoff');
  if (/\/\.|\\/.test(r.target)) parts.push('--path-as-is');
  parts.push(shellQuote(r.url));
  for (const [name, value] of Object.entries(r.headers)) parts.push('-H', shellQuote(`${name}: ${value}`));
  if (r.body !== null) parts.push('--data-raw', shellQuote(r.body));
  const notes = exportNotes(r)
    .map((note) => `# ${showControls(note)}\n`)
    .join('');
  return `${notes}${parts.join(' ')}\n`;
}

/**
 * A HAR 1.2 log with one entry, to `target` or the server that recorded the request (see replayableRequest);
 * redacted values are left out and named in the entry's comment, and so are a cut body and a replaced origin.
 */
export function toHar(profile: Profile, target?: string): object {
  const r = replayableRequest(profile, target);
  const data = profile.collectors.request;
  const q = r.target.indexOf('?');
  const query = new URLSearchParams(q === -1 ? '' : r.target.slice(q + 1));
  return {
    log: {
      version: '1.2',
      creator: { name: 'appkernel', version: '0.1.0' },
      entries: [
        {
          startedDateTime: new Date(profile.time).toISOString(),
          time: profile.duration,
          comment: exportNotes(r).join('; '),
          request: {
            method: r.method,
            url: r.url,
            httpVersion: 'HTTP/1.1',
            cookies: [],
            headers: Object.entries(r.headers).map(([name, value]) => ({ name, value })),
            queryString: [...query].map(([name, value]) => ({ name, value })),
            ...(r.body !== null ? { postData: { mimeType: data.body?.contentType ?? '', text: r.body } } : {}),
            headersSize: -1,
            bodySize: data.body?.size ?? 0,
          },
          response: {
            status: profile.status,
            statusText: data.response.statusText,
            httpVersion: 'HTTP/1.1',
            cookies: [],
            headers: Object.entries(data.response.headers)
              .filter(([, v]) => !v.includes(REDACTED))
              .map(([name, value]) => ({ name, value })),
            content: responseContent(data.response),
            redirectURL: data.response.headers.Location ?? '',
            headersSize: -1,
            bodySize: data.response.size ?? -1,
          },
          cache: {},
          timings: { send: 0, wait: profile.duration, receive: 0 },
        },
      ],
    },
  };
}

/** HAR's response.content: the size and type, and the text of the body's preview when the profile stores one (redacted, maybe cut). */
function responseContent(response: Profile['collectors']['request']['response']): object {
  const content = { size: response.size ?? -1, mimeType: response.contentType ?? '' };
  const preview = response.body;
  if (!preview) return content;
  const cut = preview.truncated
    ? {
        comment: `the first ${Buffer.byteLength(preview.text)} of ${preview.size} bytes (the preview the profile keeps)`,
      }
    : {};
  return { ...content, text: preview.text, ...cut };
}
