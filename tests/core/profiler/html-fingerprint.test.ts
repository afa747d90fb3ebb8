import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { bodyFingerprint } from '../../../core/profiler/body-fingerprint.js';
import { MIN_REMEMBERED } from '../../../core/profiler/page-checkpoints.js';
import { referenceHtmlFingerprint } from './html-fingerprint-reference.js';

const test = suite(
  'HTML fingerprint: the in-place scan, and pages read again only where they differ, give what the regular expressions gave',
);

const html = (body: string, token: string | null) => bodyFingerprint('text/html', body, token)!;

/** A small seeded generator: the same cases every run. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state ^ (state >>> 15), 0x2c1b3c6d) + 0x9e3779b9) >>> 0;
    return state / 0x100000000;
  };
}

const PIECES = [
  '<div',
  '<DIV',
  '</div>',
  '<p>',
  '</p>',
  '<h1>',
  '<h2 ',
  '<span',
  '<script>',
  '</script>',
  '<style>',
  '</STYLE>',
  '<scripts>',
  '<!-- c -->',
  '<!--',
  '-->',
  '<!DOCTYPE html>',
  '<',
  '>',
  '/>',
  '</',
  '< p>',
  '<a1',
  '=',
  '==',
  ' ',
  '  ',
  '\t',
  '\n',
  '\u00a0',
  '\u2003',
  '\ufeff',
  ' id',
  ' ID',
  'id',
  ' class',
  ' Class',
  'class',
  '"id',
  "'class",
  '=',
  ' = ',
  '="',
  "='",
  '"',
  "'",
  'x',
  'ab',
  '12',
  '3.5',
  '0',
  ' href="/_profiler/',
  ' title="a class=b id=c"',
  ' data-id="7"',
  ' xid="z"',
  ' class="ak-bar t-12:30"',
  ' id=main',
  " class='a  b '",
  'TOKEN',
  'tok',
  'TOKEN9',
  'text ',
  'ms',
  '</script',
  '<script',
  '</style',
  '<style',
];

/** A token as appkernel makes them: 6 lower-case hexadecimal digits. */
function hexToken(n: number): string {
  return (0xa00000 + n * 7919).toString(16).slice(-6);
}

function fragment(next: () => number, length: number, token: string): string {
  let text = '';
  while (text.length < length) {
    const piece = PIECES[Math.floor(next() * PIECES.length)]!;
    text += piece === 'TOKEN' || piece === 'TOKEN9' ? piece.replace('TOKEN', token) : piece;
  }
  return text;
}

test('when the text is any mix of tags, attributes, quotes, spaces (Unicode ones too), digits and the token, then the structure is the same', () => {
  const next = random(20);
  for (let n = 0; n < 3000; n++) {
    const token = n % 3 === 0 ? null : n % 3 === 1 ? 'ab12cd' : 'x';
    const text = fragment(next, 1 + Math.floor(next() * 200), token ?? 'ab12cd');
    assert.equal(html(text, token), referenceHtmlFingerprint(text, token), JSON.stringify([text, token]));
  }
});

test('when pages like one met before differ in places (token, times, tags, ids, scripts), then each has the structure it has read alone', () => {
  const next = random(21);
  for (let shape = 0; shape < 24; shape++) {
    const parts: string[] = [];
    for (let size = 0; size < MIN_REMEMBERED * 2; ) {
      const part = fragment(next, 20 + Math.floor(next() * 120), 'TOKEN');
      parts.push(part);
      size += part.length;
    }
    for (let page = 0; page < 40; page++) {
      // Half the shapes with tokens as appkernel makes them (hexadecimal, one length), which a block may differ by.
      const token = shape % 2 === 0 ? `t${shape}x${page}` : hexToken(shape * 100 + page);
      // Most parts as they were, a few changed: the token's places, a time, or any piece at all.
      const text = parts
        .map((part) => {
          const roll = next();
          if (roll < 0.03) return fragment(next, 1 + Math.floor(next() * 60), token);
          if (roll < 0.06) return `${part}${Math.floor(next() * 1000)} ms`;
          return part;
        })
        .join('')
        .replaceAll('TOKEN', token);
      assert.equal(html(text, token), referenceHtmlFingerprint(text, token), `shape ${shape}, page ${page}`);
    }
  }
});

test('when a page holds the token of a page met before, or another page the token of this one, then the values holding them still count as each page alone', () => {
  const body = (inner: string) =>
    `<!DOCTYPE html><html><body>${'<p class="row">x</p>'.repeat(300)}${inner}${'<i id="n-1">y</i>'.repeat(300)}</body></html>`;
  const first = body('<div class="t-aaaaaa">a</div>');
  assert.equal(html(first, 'aaaaaa'), referenceHtmlFingerprint(first, 'aaaaaa'));
  for (const [text, token] of [
    [first, 'bbbbbb'],
    [first, null],
    [body('<div class="t-bbbbbb">a</div>'), 'aaaaaa'],
    [body('<div class="t-bbbbbb">a</div>'), 'bbbbbb'],
  ] as const) {
    assert.equal(html(text, token), referenceHtmlFingerprint(text, token), `${token}`);
  }
});

test('when a page met before ended a script where this one does not, then the end tag found decides, wherever the checkpoints fall', () => {
  for (let before = 0; before < 20; before++) {
    // The script near the end: read again from a wrong place, the few tags after it would not be noticed as many.
    const page = (script: string) =>
      `<!-- ${before} --><html>${'<br class="x">'.repeat(400 + before)}<script>x${script}<p id="q"></html>`;
    const ended = page('</script>');
    const later = page('</scripX<p id="z"></script>');
    assert.equal(html(ended, null), referenceHtmlFingerprint(ended, null));
    assert.equal(html(later, null), referenceHtmlFingerprint(later, null), `${before}`);
  }
});

test('when a page met before held, as text of its own, the token of this one, then this one still drops its token', () => {
  const page = `<!-- tokens --><html>${'<p class="row">x</p>'.repeat(300)}<div class="t-bbbbbb">a</div>${'<i id="n-1">y</i>'.repeat(300)}</html>`;
  assert.equal(html(page, 'aaaaaa'), referenceHtmlFingerprint(page, 'aaaaaa'));
  assert.equal(html(page, 'bbbbbb'), referenceHtmlFingerprint(page, 'bbbbbb'));
  assert.is.not(html(page, 'bbbbbb').hash, html(page, 'aaaaaa').hash);
});

test('when pages of one template differ in the length of their texts and links, then each has the structure it has read alone', () => {
  const next = random(22);
  const row = (k: number, token: string, varied: boolean) => {
    const time =
      varied && next() < 0.05
        ? `${(next() * 10 ** Math.floor(next() * 5)).toFixed(Math.floor(next() * 3))} ms`
        : '1 ms';
    const cls = varied && next() < 0.01 ? `r-${k} odd` : `r-${k}`;
    const link = k % 40 === 0 ? `<a href="/_profiler/${token}" id="to-${token}">${token}</a>` : '';
    return `<tr class="${cls}"><td><a href="/_profiler/?row=${k}">${time}</a></td><td>${link}</td></tr>`;
  };
  for (let page = 0; page < 60; page++) {
    const token = page % 2 === 0 ? `k${page}` : hexToken(page);
    const text = `<!-- template --><table>${Array.from({ length: 150 }, (_, k) => row(k, token, page > 0)).join('')}</table>`;
    assert.equal(html(text, token), referenceHtmlFingerprint(text, token), `page ${page}`);
  }
});

test('when pages differ only by their hexadecimal tokens, wherever these stand (a name, after "<" or "</", an id, a class, "</styl" before one), then each has the structure it has read alone', () => {
  const places = [
    '<div id="x-TOKEN">',
    '<TOKEN>',
    '<a TOKEN>',
    '</TOKEN>',
    '<p-TOKEN>',
    '<p class="TOKEN TOKEN">',
    '<style>x</stylTOKEN</style>',
    '<script>a</scripTOKEN</script>',
    '<i class=TOKENclass=b>',
    '<i classTOKEN="c">',
    'text TOKEN',
    '<!--TOKEN-->',
    '<b title="TOKEN">',
    '<i id=TOKEN>',
  ];
  for (const [n, place] of places.entries()) {
    const page = (token: string) =>
      `<!-- place ${n} --><html>${'<br class="x">'.repeat(300)}${place.replaceAll('TOKEN', token)}${'<i class="y">z</i>'.repeat(30)}</html>`;
    for (const token of ['e0a1b2', '0c3d4e', 'eeeeee', 'c1a55e', 'd00d00']) {
      assert.equal(html(page(token), token), referenceHtmlFingerprint(page(token), token), `${place} ${token}`);
    }
  }
});

test('when one of two pages has a token that is not hexadecimal, then a block differing by the tokens is read, not jumped over', () => {
  const page = (token: string) =>
    `<!-- odd tokens --><html>${'<br class="x">'.repeat(300)}<i xTOKEN="c">${'<i class="y">z</i>'.repeat(30)}</html>`.replaceAll(
      'TOKEN',
      token,
    );
  for (const token of ['e0a1b2', '"class', 'e0a1b2', '"class', '0c3d4e'])
    assert.equal(html(page(token), token), referenceHtmlFingerprint(page(token), token), JSON.stringify(token));
});

test.run();
