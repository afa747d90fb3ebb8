import { REDACTED } from './redacted.js';
import { looksSecret } from './secret-names.js';

/** `"password": "…"`: JSON quoted in a message or a body that is not JSON as a whole */
const QUOTED_PAIR = /"([^"\\]{1,64})"(\s*:\s*)"((?:[^"\\]|\\.)*)"/g;
/** `<password>…</password>`: XML */
const XML_PAIR = /<([A-Za-z_][\w.-]{0,63})>([^<]*)<\/\1>/g;
/** `apiKey = 'sk-…'`, `password: "…"`: a line of code (an exception's source excerpt), a config text */
const CODE_PAIR = /\b([A-Za-z_$][\w$-]{0,63})(\s*[:=]\s*)(['"`])((?:(?!\3)[^\\\n]|\\.)*)\3/g;

/** Free text with the values of secret-looking names replaced where it quotes JSON, XML or code. */
export function redactEmbeddedPairs(text: string): string {
  let clean = text;
  if (text.includes('":')) {
    clean = clean.replace(QUOTED_PAIR, (whole, name: string, colon: string, value: string) =>
      (value !== '' && value !== REDACTED && looksSecret(name) ? `"${name}"${colon}"${REDACTED}"` : whole));
  }
  if (text.includes('</')) {
    clean = clean.replace(XML_PAIR, (whole, name: string, value: string) =>
      (value.trim() !== '' && value !== REDACTED && looksSecret(name) ? `<${name}>${REDACTED}</${name}>` : whole));
  }
  if (/[:=]\s*['"`]/.test(clean)) {
    clean = clean.replace(CODE_PAIR, (whole, name: string, sign: string, quote: string, value: string) =>
      (value !== '' && value !== REDACTED && looksSecret(name) ? `${name}${sign}${quote}${REDACTED}${quote}` : whole));
  }
  return clean;
}
