import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { escapeHtml } from '../../render/escape.js';
import { assertNothingInjected, XSS_PAYLOADS } from './xss-harness.js';

// The XSS suites are only as good as their corpus and their checker: this proves both bite.
const test = suite('the XSS corpus and its checker');

const BASELINE = '<!DOCTYPE html><html><body><p title="harmless">harmless</p><a href="/x">harmless</a></body></html>';
const page = (text: string, attribute: string, href: string) =>
  `<!DOCTYPE html><html><body><p title="${attribute}">${text}</p><a href="${href}">x</a></body></html>`;

/** Whether the checker rejects the page (uvu's assert.throws would pass an assertion error through). */
function rejected(html: string): boolean {
  try {
    assertNothingInjected(html, BASELINE, 'raw');
    return false;
  } catch {
    return true;
  }
}

test('should hold at least 50 distinct payloads', () => {
  assert.ok(XSS_PAYLOADS.length >= 50, `${XSS_PAYLOADS.length} payloads`);
  assert.is(new Set(XSS_PAYLOADS).size, XSS_PAYLOADS.length);
});

test('when every payload is escaped into text, an attribute and an href, then the checker passes the page', () => {
  for (const payload of XSS_PAYLOADS) {
    assertNothingInjected(
      page(escapeHtml(payload), escapeHtml(payload), `/x?q=${escapeHtml(encodeURIComponent(payload))}`),
      BASELINE,
      JSON.stringify(payload),
    );
  }
});

test('when a payload with a tag is reflected raw as text, then the checker fails the page', () => {
  const tagged = XSS_PAYLOADS.filter((p) => /<[a-z]/i.test(p));
  assert.ok(tagged.length >= 40, `${tagged.length} payloads with tags`);
  for (const payload of tagged) {
    assert.ok(rejected(page(payload, 'harmless', '/x')), JSON.stringify(payload));
  }
});

test('when a payload with a quote is reflected raw into an attribute, then the checker fails the page', () => {
  const quoted = XSS_PAYLOADS.filter((p) => /^"[ >]/.test(p));
  assert.ok(quoted.length >= 2, `${quoted.length} payloads breaking out of double quotes`);
  for (const payload of quoted) {
    assert.ok(rejected(page('harmless', payload, '/x')), JSON.stringify(payload));
  }
});

test('when a script URL is reflected raw into an href, then the checker fails the page', () => {
  const urls = XSS_PAYLOADS.filter((p) => /^\s*(java|vb)\s*script:|^data:/i.test(p));
  assert.ok(urls.length >= 4, `${urls.length} script URLs`);
  for (const payload of urls) {
    assert.ok(rejected(page('harmless', 'harmless', payload)), JSON.stringify(payload));
  }
});

test.run();
