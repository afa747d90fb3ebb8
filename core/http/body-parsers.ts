import { BadRequestError, HttpError } from '../errors.js';
import type { QueryValues } from './request.js';

/** Options of the body helpers of Request. */
export interface BodyOptions {
  /** bytes; a larger body is answered 413 (the server's bodyLimit applies before this) */
  limit?: number;
}

const UTF8 = new TextDecoder('utf-8', { fatal: true });

/** The body as UTF-8 text; 400 when it is not UTF-8, 413 above the limit. */
export function bodyText(body: Buffer, options: BodyOptions = {}): string {
  checkLimit(body, options);
  try {
    return UTF8.decode(body);
  } catch {
    throw new BadRequestError('Malformed request body: it is not valid UTF-8 text.');
  }
}

/** The body parsed as JSON; 400 when it is empty or not JSON. */
export function bodyJson(body: Buffer, options: BodyOptions = {}): unknown {
  const text = bodyText(body, options);
  if (text.trim() === '') throw new BadRequestError('Malformed JSON body: the request body is empty.');
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new BadRequestError(`Malformed JSON body: ${(error as Error).message}.`, 400, { cause: error });
  }
}

/**
 * The fields of an urlencoded or multipart form (a repeated field gives an array; multipart file
 * parts are left out: formData() has them). 415 for another content type, 400 for a malformed body.
 */
export async function bodyForm(
  body: Buffer,
  contentType: string | undefined,
  options: BodyOptions = {},
): Promise<QueryValues> {
  const type = mediaType(contentType);
  if (type === 'multipart/form-data') {
    const fields: QueryValues = Object.create(null);
    for (const [name, value] of await bodyFormData(body, contentType, options)) {
      if (typeof value === 'string') addField(fields, name, value);
    }
    return fields;
  }
  if (type !== '' && type !== 'application/x-www-form-urlencoded') throw unsupported(type);
  return parseUrlencoded(bodyText(body, options));
}

/** The form as a web FormData, files included (multipart parsed by undici, Node's own fetch implementation). */
export async function bodyFormData(
  body: Buffer,
  contentType: string | undefined,
  options: BodyOptions = {},
): Promise<FormData> {
  checkLimit(body, options);
  const type = mediaType(contentType);
  if (type !== 'multipart/form-data' && type !== 'application/x-www-form-urlencoded') throw unsupported(type || 'none');
  try {
    return await new globalThis.Response(Uint8Array.from(body), {
      headers: { 'Content-Type': contentType! },
    }).formData();
  } catch (error) {
    throw new BadRequestError(`Malformed form body: ${(error as Error).message}`, 400, { cause: error });
  }
}

function parseUrlencoded(text: string): QueryValues {
  const fields: QueryValues = Object.create(null);
  for (const part of text.split('&')) {
    if (!part) continue;
    const eq = part.indexOf('=');
    addField(
      fields,
      decodeField(eq === -1 ? part : part.slice(0, eq)),
      eq === -1 ? '' : decodeField(part.slice(eq + 1)),
    );
  }
  return fields;
}

function decodeField(component: string): string {
  try {
    return decodeURIComponent(component.replace(/\+/g, ' '));
  } catch {
    throw new BadRequestError(`Malformed form body: "${component.slice(0, 40)}" is not valid percent-encoding.`);
  }
}

function addField(fields: QueryValues, name: string, value: string): void {
  const existing = fields[name];
  if (existing === undefined) fields[name] = value;
  else if (Array.isArray(existing)) existing.push(value);
  else fields[name] = [existing, value];
}

function checkLimit(body: Buffer, options: BodyOptions): void {
  if (options.limit !== undefined && body.length > options.limit) {
    throw new HttpError(
      413,
      `Content Too Large: the request body (${body.length} bytes) exceeds the limit of ${options.limit} bytes.`,
    );
  }
}

function mediaType(contentType: string | undefined): string {
  return (contentType ?? '').split(';')[0].trim().toLowerCase();
}

function unsupported(type: string): HttpError {
  return new HttpError(
    415,
    `Unsupported Media Type: a form body is application/x-www-form-urlencoded or multipart/form-data, not ${type}.`,
  );
}
