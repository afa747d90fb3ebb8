import { REDACTED } from './redacted.js';

/** Shorter values are not followed: "1" or "true" would be replaced in every text. */
const MIN_LENGTH = 6;

/**
 * The secret values one request carried (by name: a query value, a header, a form field, a route
 * parameter), followed into the texts that may quote them: log messages and contexts, exception
 * messages. Also the raw path with a secret route parameter, replaced by its redacted form.
 */
export class SecretValues {
  readonly #pairs: [string, string][] = [];

  /** A secret value: it, and its percent-encoded form, become REDACTED in every text scrubbed. */
  add(value: string): void {
    if (value.length < MIN_LENGTH || value.includes(REDACTED)) return;
    this.#replace(value, REDACTED);
    const encoded = encodeURIComponent(value);
    if (encoded !== value) this.#replace(encoded, REDACTED);
  }

  /** A credential header value ("Bearer abc"): the whole value and the part after the scheme. */
  addCredential(value: string): void {
    this.add(value);
    const space = value.indexOf(' ');
    if (space !== -1) this.add(value.slice(space + 1).trim());
  }

  /** Any text holding `from` gets `to` instead: a raw path with a secret route parameter gets its redacted form. */
  replacePath(from: string, to: string): void {
    if (from !== to && from.length >= MIN_LENGTH) this.#replace(from, to);
  }

  #replace(from: string, to: string): void {
    if (this.#pairs.some(([known]) => known === from)) return;
    this.#pairs.push([from, to]);
    // Longest first: a path holding a value is replaced whole before the value alone.
    this.#pairs.sort((a, b) => b[0].length - a[0].length);
  }

  get size(): number {
    return this.#pairs.length;
  }

  scrub(text: string): string {
    let clean = text;
    for (const [from, to] of this.#pairs) if (clean.includes(from)) clean = clean.split(from).join(to);
    return clean;
  }
}
