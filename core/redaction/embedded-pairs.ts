import { alwaysSecretName } from './app-data-secrets.js';
import { REDACTED } from './redacted.js';
import { looksSecret } from './secret-names.js';

/** `"password": "…"`: JSON quoted in a message or a body that is not JSON as a whole */
const QUOTED_PAIR = /"([^"\\]{1,64})"(\s*:\s*)"((?:[^"\\]|\\.)*)"/g;
/** `<password>…</password>`: XML */
const XML_PAIR = /<([A-Za-z_][\w.-]{0,63})>([^<]*)<\/\1>/g;
/** `apiKey = 'sk-…'`, `password: "…"`: a line of code (an exception's source excerpt), a config text */
const CODE_PAIR = /\b([A-Za-z_$][\w$-]{0,63})(\s*[:=]\s*)(['"`])((?:(?!\3)[^\\\n]|\\.)*)\3/g;

/**
 * `X-Api-Key: …`, `passcode: 4242`, `Authorization: Token …`: a header line or a "name: value" quoted in
 * a message. The value is one word (after an authorization scheme, the word after it).
 */
const COLON_PAIR =
  /(^|[\s,;(\[{])([A-Za-z][\w.-]{0,63})(:[ \t]*)((?:(?:Bearer|Basic|Token|Digest|ApiKey|Key)[ \t]+)?)([^\s,;)\]}"'`]+)/g;

const ALREADY_REDACTED = REDACTED.slice(0, -1);

/**
 * Whether a word after "name:" in free text is secret: any word under a password-family name; under
 * another secret-reading name ("token: expired" is prose) only the word after a scheme ("Token …") or a
 * word of 8 or more with letters and digits.
 */
function secretAfterColon(name: string, scheme: string, value: string): boolean {
  // The word stops before "]": a value already replaced reads "[REDACTED".
  if (value.startsWith(ALREADY_REDACTED) || value.startsWith('//') || !looksSecret(name)) return false;
  return (
    scheme !== '' || alwaysSecretName(name) || (value.length >= 8 && /[0-9]/.test(value) && /[A-Za-z]/.test(value))
  );
}

/** Free text with the values of secret-looking names replaced where it quotes JSON, XML or code. */
export function redactEmbeddedPairs(text: string): string {
  let clean = text;
  if (text.includes('":')) {
    clean = clean.replace(QUOTED_PAIR, (whole, name: string, colon: string, value: string) =>
      value !== '' && value !== REDACTED && looksSecret(name) ? `"${name}"${colon}"${REDACTED}"` : whole,
    );
  }
  if (text.includes('</')) {
    clean = clean.replace(XML_PAIR, (whole, name: string, value: string) =>
      value.trim() !== '' && value !== REDACTED && looksSecret(name) ? `<${name}>${REDACTED}</${name}>` : whole,
    );
  }
  if (/[:=]\s*['"`]/.test(clean)) {
    clean = clean.replace(CODE_PAIR, (whole, name: string, sign: string, quote: string, value: string) =>
      value !== '' && value !== REDACTED && looksSecret(name) ? `${name}${sign}${quote}${REDACTED}${quote}` : whole,
    );
  }
  if (clean.includes(':')) {
    clean = clean.replace(
      COLON_PAIR,
      (whole, before: string, name: string, colon: string, scheme: string, value: string) =>
        secretAfterColon(name, scheme, value) ? `${before}${name}${colon}${scheme}${REDACTED}` : whole,
    );
  }
  return clean;
}
