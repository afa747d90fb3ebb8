import { decodeFormName, redactQueryStrings } from './query-strings.js';
import { redactData } from './redact-data.js';
import { redactEmbeddedPairs } from './embedded-pairs.js';
import { REDACTED } from './redacted.js';
import { looksSecret } from './secret-names.js';
import { redactShapes } from './secret-shapes.js';

/** Called with each secret value found, so that it can be followed into other places (see SecretValues). */
export type OnSecretValue = (value: string) => void;

/** What a body that cannot be redacted is stored as. */
export function unredactableBody(why: string): string {
  return `[body not stored: it could not be redacted (${why})]`;
}

/**
 * The body text with secret fields replaced: form-urlencoded and multipart fields by name ("form
 * <name>"), JSON keys at any depth ("body <path>") whatever the content type says when the text
 * starts with "{" or "[", and credentials of a known shape anywhere. A body that cannot be redacted
 * is replaced by a note and listed as "body".
 */
export function redactBody(
  contentType: string | null,
  text: string,
  redacted: string[],
  onValue: OnSecretValue = () => {},
): string {
  try {
    const type = (contentType ?? '').split(';')[0].trim().toLowerCase();
    let clean: string;
    if (type === 'application/x-www-form-urlencoded') clean = redactUrlEncoded(text, redacted, onValue);
    else if (type === 'multipart/form-data') clean = redactMultipart(contentType ?? '', text, redacted, onValue);
    else if (looksLikeJson(text)) clean = redactJson(text, redacted, onValue);
    else clean = text;
    // any text body ("password=…" in text/plain, an .env file in a multipart part, XML): the free-text policy
    return redactShapes(redactEmbeddedPairs(redactQueryStrings(clean, true)));
  } catch (error) {
    redacted.push('body');
    return unredactableBody(error instanceof Error ? error.message : String(error));
  }
}

function looksLikeJson(text: string): boolean {
  const first = /\S/.exec(text.slice(0, 1024))?.[0];
  return first === '{' || first === '[';
}

function redactUrlEncoded(text: string, redacted: string[], onValue: OnSecretValue): string {
  return text
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      const name = decodeFormName(eq === -1 ? pair : pair.slice(0, eq));
      if (eq === -1 || !looksSecret(name)) return pair;
      redacted.push(`form ${name}`);
      onValue(decodeFormName(pair.slice(eq + 1)));
      return `${pair.slice(0, eq)}=${REDACTED}`;
    })
    .join('&');
}

/** `name="x"`, `name=x` and RFC 5987's `name*=UTF-8''x` (which wins when both are given). */
function partName(head: string): string | undefined {
  const disposition = /content-disposition:([^\r\n]*)/i.exec(head)?.[1];
  if (disposition === undefined) return undefined;
  const extended = /(?:^|[;\s])name\*\s*=\s*([^;\s]*)/i.exec(disposition)?.[1];
  if (extended !== undefined) return decodeFormName(extended.replace(/^[^']*'[^']*'/, '').replace(/^"|"$/g, ''));
  const plain = /(?:^|[;\s])name\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^;\s]*))/i.exec(disposition);
  return plain ? (plain[1] ?? plain[2]) : undefined;
}

function redactMultipart(contentType: string, text: string, redacted: string[], onValue: OnSecretValue): string {
  const boundary = /boundary="?([^";]+)"?/i.exec(contentType)?.[1] ?? /^--([^\r\n]+)/.exec(text)?.[1];
  if (!boundary) return text;
  return text
    .split(`--${boundary}`)
    .map((part) => {
      const split = /\r?\n\r?\n/.exec(part);
      if (!split) return part;
      const head = part.slice(0, split.index);
      const name = partName(head);
      if (name === undefined || !looksSecret(name)) return part;
      redacted.push(`form ${name}`);
      const body = part.slice(split.index + split[0].length);
      const trailing = /\r?\n$/.exec(body)?.[0] ?? '';
      onValue(body.slice(0, body.length - trailing.length));
      return `${head}${split[0]}${REDACTED}${trailing}`;
    })
    .join(`--${boundary}`);
}

function redactJson(text: string, redacted: string[], onValue: OnSecretValue): string {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return redactJsonText(text, redacted, onValue);
  }
  const strings = (s: string) => redactQueryStrings(redactShapes(s));
  const result = redactData(value, strings, (path, secret) => {
    redacted.push(`body ${path}`);
    if (typeof secret === 'string') onValue(secret);
  });
  if (result.problem !== null) {
    redacted.push('body');
    return unredactableBody(result.problem);
  }
  return result.changed ? JSON.stringify(result.value) : text;
}

/** For JSON that does not parse (cut at the body cap): `"key": "value"` and `"key": 123` pairs, the value possibly unterminated. */
function redactJsonText(text: string, redacted: string[], onValue: OnSecretValue): string {
  return text.replace(
    /"((?:[^"\\]|\\.)*)"(\s*:\s*)("(?:[^"\\]|\\.)*(?:"|$)|-?[0-9][0-9.eE+-]*|true|false)/g,
    (whole, key: string, colon: string, value: string) => {
      if (!looksSecret(key)) return whole;
      redacted.push(`body ${key}`);
      onValue(value.replace(/^"|"$/g, ''));
      return `"${key}"${colon}"${REDACTED}"`;
    },
  );
}
