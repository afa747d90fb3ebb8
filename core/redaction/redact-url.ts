import { REDACTED } from './redacted.js';
import { redactQueryString, redactText } from './redact-text.js';
import type { SecretValues } from './secret-values.js';

/**
 * A URL with its user info, secret query values and credential shapes replaced, and known secrets scrubbed.
 * The query values it redacts are added to `secrets`: an answer that quotes the URL (an echo, an error) is
 * scrubbed of them, in whatever encoding the URL carried them.
 */
export function redactUrl(url: string, secrets: SecretValues, redacted: string[]): string {
  let clean = url.replace(/^([a-z][a-z0-9+.-]*:\/\/)[^/?#@]*@/i, (_, scheme: string) => `${scheme}${REDACTED}@`);
  if (clean !== url) redacted.push('url user info');
  const q = clean.indexOf('?');
  if (q !== -1) {
    const hash = clean.indexOf('#', q);
    const query = clean.slice(q + 1, hash === -1 ? undefined : hash);
    const cleanQuery = redactQueryString(query);
    if (cleanQuery !== query) {
      redacted.push('url query');
      followQueryValues(query, cleanQuery, secrets);
    }
    clean = `${clean.slice(0, q + 1)}${cleanQuery}${hash === -1 ? '' : clean.slice(hash)}`;
  }
  return secrets.scrub(redactText(clean));
}

/** Each query value that redaction changed, as sent and decoded, becomes a secret value to follow. */
function followQueryValues(query: string, cleanQuery: string, secrets: SecretValues): void {
  const clean = cleanQuery.split('&');
  query.split('&').forEach((pair, i) => {
    if (clean[i] === pair) return;
    const raw = pair.slice(pair.indexOf('=') + 1);
    secrets.add(raw);
    try {
      secrets.add(decodeURIComponent(raw.replace(/\+/g, ' ')));
    } catch {
      // not percent-encoded text: kept as sent
    }
  });
}
