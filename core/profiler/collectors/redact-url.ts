import { REDACTED, redactQueryString, redactText, type SecretValues } from '../redact.js';

/** A URL with its user info, secret query values and credential shapes replaced, and known secrets scrubbed. */
export function redactUrl(url: string, secrets: SecretValues, redacted: string[]): string {
  let clean = url.replace(/^([a-z][a-z0-9+.-]*:\/\/)[^/?#@]*@/i, (_, scheme: string) => `${scheme}${REDACTED}@`);
  if (clean !== url) redacted.push('url user info');
  const q = clean.indexOf('?');
  if (q !== -1) {
    const hash = clean.indexOf('#', q);
    const query = clean.slice(q + 1, hash === -1 ? undefined : hash);
    const cleanQuery = redactQueryString(query);
    if (cleanQuery !== query) redacted.push('url query');
    clean = `${clean.slice(0, q + 1)}${cleanQuery}${hash === -1 ? '' : clean.slice(hash)}`;
  }
  return secrets.scrub(redactText(clean));
}
