import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { load, type CheerioAPI } from 'cheerio';
import * as assert from 'uvu/assert';
import { BUILT_IN_PANEL_NAMES } from '../../panels/registry.js';
import { PACKAGE_ENTRY } from '../helpers/cli.js';
import { foreignBodyStyles, foreignScripts } from '../helpers/toolbar-assets.js';
import {
  fetchProfileJson,
  fetchRawPath,
  fetchText,
  serveForTest,
  type Fetched,
  type TestServer,
} from '../helpers/serve.js';

import { corpusSample, type Sampled } from '../helpers/corpus.js';
import { XSS_PAYLOADS } from './fixtures/xss-payloads.js';

export { XSS_PAYLOADS };

/**
 * The payloads a suite sends: a fixed sample of 16 under `npm test` (seeded by the suite's name, so
 * each suite covers others), every one under test:stress; the NUL payload, refused before anything
 * reflects it, always.
 */
export function xssCases(suite: string): Sampled<string>[] {
  return corpusSample(XSS_PAYLOADS, { size: 16, seed: suite, always: (payload) => payload.includes('\0') });
}

/** The compiled payload list, imported by the app file as well. */
const FIXTURES = resolve(process.cwd(), 'dist/tests/hardening/fixtures/xss-payloads.js');

const LINE_TERMINATORS = /[\n\r\u2028\u2029]/;

/**
 * A module whose source holds the strings (in a string array and a line comment) next to the
 * line that throws: its code excerpt, highlighted, reflects them. The harmless twin has the
 * same shape.
 */
function sourceModule(strings: readonly string[]): string {
  return `export function throwFromSource() {
  const inline = ${JSON.stringify(strings)};
  // ${strings.filter((s) => !LINE_TERMINATORS.test(s)).join(' ')}
  throw new Error(\`\${inline.length} strings in the source\`);
}
`;
}

/**
 * Routes that put a payload in every place a request can: a plain page (the
 * toolbar is injected), a route parameter, a requirement that fails on it (the
 * 404's route explanation), a controller that logs the payload (as message,
 * context value and context key) and throws it (as message and class name of
 * an error and its cause, and logs on a channel it names), one that throws next
 * to source lines holding every payload; response bodies as JSON (`/answer`) and
 * text (`/say`); a route whose definition holds it (`/def/<n>`, defaults).
 * `harmless` gives the baselines.
 */
const XSS_APP = `import { createApp, Response } from ${JSON.stringify(PACKAGE_ENTRY)};
import { XSS_PAYLOADS } from ${JSON.stringify(FIXTURES)};
import { throwFromSource as hostileSource } from './hostile-source.mjs';
import { throwFromSource as harmlessSource } from './harmless-source.mjs';

const PAGE = '<!DOCTYPE html><html><head><meta charset="UTF-8"><title>page</title></head><body><p>a page</p></body></html>';
const payload = (index) => (index === 'harmless' ? 'harmless' : XSS_PAYLOADS[Number(index)]);

export const app = createApp({ name: 'xss' })
  .get('page', '/page', function page() { return PAGE; })
  .get('param', '/param/{value}', function param() { return PAGE; }, { requirements: { value: '.+' } })
  .get('num', '/num/{n}', function num() { return PAGE; }, { requirements: { n: '\\\\d+' } })
  .get('source', '/source/{which}', function source({ params }) {
    return params.which === 'harmless' ? harmlessSource() : hostileSource();
  })
  .get('fail', '/fail/{index}', function fail({ params, log }) {
    const text = payload(params.index);
    log.warning(text, { payload: text });
    log.error('Failing with {payload}', { payload: text, [text]: text });
    log.withChannel(text).info('From a channel named by the payload.');
    const cause = new TypeError(text);
    cause.name = text;
    throw new Error(text, { cause });
  })
  .get('answer', '/answer/{index}', function answer({ params }) {
    const text = payload(params.index);
    return { payload: text, [text]: [text] };
  })
  .get('say', '/say/{index}', function say({ params }) {
    return new Response(payload(params.index), 200, { 'Content-Type': 'text/plain; charset=utf-8' });
  })
  .get('defharmless', '/def/harmless', function defined() { return PAGE; }, { defaults: { note: 'harmless' } });

XSS_PAYLOADS.forEach((text, index) => app.get('def' + index, '/def/' + index, function defined() { return PAGE; }, { defaults: { note: text } }));
`;

export interface XssServer extends TestServer {
  /** stops the server, removes the app folder */
  remove(): Promise<void>;
}

export async function serveXssApp(): Promise<XssServer> {
  const dir = mkdtempSync(join(tmpdir(), 'appkernel-xss-app-'));
  writeFileSync(join(dir, 'app.config.mjs'), XSS_APP);
  writeFileSync(join(dir, 'hostile-source.mjs'), sourceModule(XSS_PAYLOADS));
  writeFileSync(join(dir, 'harmless-source.mjs'), sourceModule(XSS_PAYLOADS.map((_, i) => `harmless ${i}`)));
  // Every page is checked with "open in editor" links on its app frames.
  const t = await serveForTest({
    appFile: join(dir, 'app.config.mjs'),
    root: dir,
    editor: 'myeditor://open?file=%f&line=%l',
  });
  return {
    ...t,
    async remove() {
      await t.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The payload as a request target can carry it unencoded: only what the wire forbids (space, controls, non-ASCII, `?`, `#`) is escaped. */
export function rawPathSafe(payload: string): string {
  return [...payload]
    .map((c) => (/[\x21-\x7e]/.test(c) && c !== '?' && c !== '#' ? c : encodeURIComponent(c)))
    .join('');
}

/** The payload as a header value can carry it: its UTF-8 bytes read as latin1 (as node reads them), controls as spaces, trimmed as HTTP trims. */
export function headerSafe(payload: string): string {
  return Buffer.from(payload, 'utf8')
    .toString('latin1')
    .replace(/[\x00-\x08\x0a-\x1f\x7f]/g, ' ')
    .replace(/^[ \t]+|[ \t]+$/g, '');
}

const URL_ATTRIBUTES = new Set([
  'href',
  'src',
  'action',
  'formaction',
  'xlink:href',
  'data',
  'srcdoc',
  'poster',
  'background',
]);

type Element = { name: string; attribs?: Record<string, string> };

/**
 * Tags and tag@attribute pairs of a page, counted, leaving out its route explanations (checked on
 * their own): a payload that became markup changes them. A `title` is left out: a long value (a URL
 * over 160 characters) is cut and shown whole in one; so are `<wbr>`, the places a URL may wrap
 * (render/url-html.ts), as many as its separators.
 */
function fingerprint($: CheerioAPI): Map<string, number> {
  const routeMiss = new Set($('.routing-miss').find('*').addBack().toArray());
  const counts = new Map<string, number>();
  const add = (key: string) => counts.set(key, (counts.get(key) ?? 0) + 1);
  $('*').each((_, el) => {
    const node = el as unknown as Element;
    if (node.name === 'wbr' || routeMiss.has(el)) return;
    add(node.name);
    for (const attribute of Object.keys(node.attribs ?? {}))
      if (attribute !== 'title') add(`${node.name}@${attribute}`);
  });
  return counts;
}

/** What a page is compared by: its route explanations and the fingerprint of the rest. */
interface Shape {
  routeMisses: number;
  fingerprint: Map<string, number>;
}

const shape = ($: CheerioAPI): Shape => ({ routeMisses: $('.routing-miss').length, fingerprint: fingerprint($) });

/** The few harmless pages every payload is compared with, each parsed once. */
const baselineShapes = new Map<string, Shape>();
function baselineShape(baseline: string): Shape {
  let known = baselineShapes.get(baseline);
  if (!known) baselineShapes.set(baseline, (known = shape(load(baseline))));
  return known;
}

/**
 * The page has no element or attribute the payload introduced: the same tags
 * and attributes, as many of each, as the page for a harmless value; and,
 * whatever the baseline, no script or body style but the toolbar's own, no event handler, no script URL.
 * The page is parsed once, the baseline once per suite: parsing took most of the XSS suites' time.
 */
export function assertNothingInjected(html: string, baseline: string, where: string): void {
  const $ = load(html);
  assert.is(foreignScripts($), 0, `${where}: a <script> element`);
  assert.is(foreignBodyStyles($), 0, `${where}: a <style> element in the body`);
  assert.is(
    $('base, iframe, frame, object, embed, svg, math, img, video, audio, link:not([rel=icon])').length,
    0,
    `${where}: an injected element`,
  );
  assert.ok($('script[src="/_profiler/live-search.js"]').length <= 1, `${where}: the live script twice`);
  assert.is($('meta[http-equiv]').length, 0, `${where}: a <meta http-equiv>`);
  $('*').each((_, el) => {
    const node = el as unknown as Element;
    for (const [name, value] of Object.entries(node.attribs ?? {})) {
      assert.not.ok(/^on/i.test(name), `${where}: attribute ${name} on <${node.name}>`);
      // The layout's empty favicon (`data:,`) is the one data: URL a page may hold.
      if (URL_ATTRIBUTES.has(name.toLowerCase()) && value !== 'data:,') {
        assert.not.match(
          value.replace(/[\s\u0000-\u001f]/g, ''),
          /^(javascript|vbscript|data):/i,
          `${where}: ${name}="${value}"`,
        );
      }
      if (name.toLowerCase() === 'style')
        assert.not.match(value, /expression\(|javascript:|url\(/i, `${where}: style="${value}"`);
    }
  });
  const expected = baselineShape(baseline);
  assertRouteMissClean($, expected.routeMisses, where);
  const got = fingerprint($);
  const keys = new Set([...got.keys(), ...expected.fingerprint.keys()]);
  const differences = [...keys]
    .filter((k) => got.get(k) !== expected.fingerprint.get(k))
    .map((k) => `${k}: ${expected.fingerprint.get(k) ?? 0} -> ${got.get(k) ?? 0}`);
  assert.equal(differences, [], `${where}: structure differs from the harmless page`);
}

/** The tags and classes a 404/405's route explanation is made of; hrefs only to paths on this server. */
const ROUTE_MISS_TAGS = new Set([
  'section',
  'h2',
  'code',
  'div',
  'strong',
  'ul',
  'li',
  'a',
  'span',
  'p',
  'table',
  'thead',
  'tbody',
  'tr',
  'th',
  'td',
]);
const ROUTE_MISS_CLASSES =
  /^(routing-miss|card|did-you-mean|muted|mono|empty|route-miss|miss-(match|path|requirement|method|trailing-slash))$/;

/**
 * A route explanation lists as many routes and suggestions as are close to the request, so its
 * shape varies with the path: it is checked on its own, element by element, against what it may
 * hold, and left out of the comparison with the harmless page.
 */
function assertRouteMissClean($: CheerioAPI, baselineBlocks: number, where: string): void {
  const blocks = $('.routing-miss');
  assert.is(blocks.length, baselineBlocks, `${where}: route explanations`);
  blocks
    .find('*')
    .addBack()
    .each((_, el) => {
      const node = el as unknown as Element;
      assert.ok(ROUTE_MISS_TAGS.has(node.name), `${where}: <${node.name}> in the route explanation`);
      for (const [name, value] of Object.entries(node.attribs ?? {})) {
        if (name === 'class') {
          for (const c of value.split(' '))
            assert.match(c, ROUTE_MISS_CLASSES, `${where}: class "${c}" in the route explanation`);
        } else {
          assert.ok(
            name === 'href' && node.name === 'a' && value.startsWith('/') && !value.startsWith('//'),
            `${where}: ${name}="${value}" on <${node.name}> in the route explanation`,
          );
        }
      }
    });
}

/** The visible text of a page (entities decoded): where an escaped payload shows. */
export function pageText(html: string): string {
  return load(html).root().text();
}

/** A payload as page text shows it: HTML parsing turns CR LF into LF and drops NUL; a bidi control is written as its escape. */
export function asText(payload: string): string {
  return payload
    .replace(/\r\n?/g, '\n')
    .replace(/\0/g, '')
    .replace(/[\u202a-\u202e\u2066-\u2069]/g, (c) => `\\u${c.charCodeAt(0).toString(16)}`);
}

export interface ProfilePages {
  token: string;
  /** panel name -> HTML */
  panels: Map<string, string>;
  /** the search list filtered to this one profile */
  search: string;
}

/** Every panel of a stored profile, its search row; and its JSON view, checked to be served as JSON. */
export async function profilePages(base: string, token: string): Promise<ProfilePages> {
  await fetchProfileJson(base, token);
  const panels = new Map<string, string>();
  for (const panel of BUILT_IN_PANEL_NAMES) {
    const r = await fetchText(`${base}/_profiler/${token}?panel=${panel}`);
    assert.is(r.status, 200, `panel ${panel} of ${token}`);
    panels.set(panel, r.body);
  }
  const json = await fetchText(`${base}/_profiler/${token}.json`);
  assert.is(json.status, 200);
  assert.match(json.headers['content-type'], /^application\/json/, 'the JSON view is served as JSON, never as HTML');
  const search = await fetchText(`${base}/_profiler/search?limit=10&token=${token}`);
  assert.is(search.status, 200);
  assert.ok(
    pageText(search.body).includes('1 results found') || pageText(search.body).includes('1 result found'),
    `one search row for ${token}`,
  );
  return { token, panels, search: search.body };
}

/** Compares every page of a hostile request's profile with those of the harmless one. */
export function assertProfileClean(pages: ProfilePages, baseline: ProfilePages, where: string): void {
  for (const [panel, html] of pages.panels)
    assertNothingInjected(html, baseline.panels.get(panel)!, `${where}, ${panel} panel`);
  assertNothingInjected(pages.search, baseline.search, `${where}, search list`);
}

/** The page and its profile token; a NUL byte in a URL is refused (400, plain text) before anything reflects it. */
export async function hostileGet(
  t: TestServer,
  path: string,
  headers: Record<string, string> = {},
): Promise<Fetched & { token: string }> {
  const r = await fetchRawPath(t.base, path, headers);
  const token = r.headers['x-debug-token'];
  assert.match(token ?? '', /^[0-9a-f]{6}$/, `GET ${path.slice(0, 80)} answered ${r.status} with a profile token`);
  return { ...r, token };
}

/** What a harmless request shows, to compare a hostile one with: its page (expected to answer `status`) and its profile's pages. */
export async function harmlessBaseline(
  t: TestServer,
  path: string,
  status: number,
  headers: Record<string, string> = {},
): Promise<{ page: string; profile: ProfilePages }> {
  const r = await hostileGet(t, path, headers);
  assert.is(r.status, status, `GET ${path}`);
  return { page: r.body, profile: await profilePages(t.base, r.token) };
}

/** A NUL byte cannot travel in a URL: such a request is refused with a plain-text 400 and reflects nothing. */
export async function assertNulRefused(t: TestServer, path: string): Promise<void> {
  const r = await fetchRawPath(t.base, path);
  assert.is(r.status, 400);
  assert.match(r.headers['content-type'], /^text\/plain/);
  assert.match(r.body, /NUL byte/);
}
