import { REDACTED } from './redacted.js';
import { looksSecret } from './secret-names.js';

/**
 * The start of a name=value pair of a query string, wherever it appears: in a URL, a header, a log
 * message. Only the name is matched here: a secret value is then cut by hand (see valueEnd), a
 * readable one is scanned on, as it may hold another pair after a ";".
 */
const PAIR_NAME = /[?&;]([^=&#;\s"'<>]+)=/g;
/** In free text a pair may also start the text or follow a blank or an opening mark: "login failed for password=…". */
const TEXT_PAIR_NAME = /(?:^|[?&;\s,(\[{'"])([^=&#;?/\s"'<>(),[\]{}]+)=/g;

/**
 * Where a query value ends: at "&" or "#" only, so that a value starting with a quote or a backslash
 * is cut whole. In free text (`text`: log and exception messages) whitespace, a closing mark, a comma
 * or a quote ends it too.
 */
function valueEnd(source: string, from: number, text: boolean): number {
  for (let i = from; i < source.length; i++) {
    const c = source.charCodeAt(i);
    if (c === 0x26 || c === 0x23) return i;
    if (
      text &&
      (c === 0x20 ||
        c === 0x09 ||
        c === 0x0a ||
        c === 0x0d ||
        c === 0x29 ||
        c === 0x5d ||
        c === 0x7d ||
        c === 0x2c ||
        c === 0x22 ||
        c === 0x27)
    )
      return i;
  }
  return source.length;
}

export function decodeFormName(raw: string): string {
  try {
    return decodeURIComponent(raw.replace(/\+/g, ' '));
  } catch {
    return raw;
  }
}

/**
 * `source` with the values of secret-looking query parameters replaced in every query string it holds.
 * `text` says the source is free text (a message), where whitespace also ends a value.
 */
export function redactQueryStrings(source: string, text = false): string {
  if (source.indexOf('=') === -1) return source;
  let out = '';
  let copied = 0;
  const pairs = text ? TEXT_PAIR_NAME : PAIR_NAME;
  pairs.lastIndex = 0;
  for (let m = pairs.exec(source); m; m = pairs.exec(source)) {
    const start = m.index + m[0].length;
    const end = valueEnd(source, start, text);
    const value = source.slice(start, end);
    if (value === '' || source.startsWith(REDACTED, start) || !looksSecret(decodeFormName(m[1]))) continue;
    out += source.slice(copied, start) + REDACTED;
    copied = end;
    pairs.lastIndex = end;
  }
  return copied === 0 ? source : out + source.slice(copied);
}

/** Whether the URL's query has a parameter that looks secret, with a value. */
export function hasSecretQuery(url: string): boolean {
  return url.includes('?') && redactQueryStrings(url) !== url;
}
