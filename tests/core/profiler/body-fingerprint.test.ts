import { Readable } from 'node:stream';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { bodyFingerprint, FINGERPRINT_CAP } from '../../../core/profiler/body-fingerprint.js';
import { diffProfiles } from '../../../core/profiler/profile-diff.js';
import { diffReplay } from '../../../core/profiler/replay.js';
import { sampleProfile } from '../../render/text/sample-profile.js';

const test = suite('bodyFingerprint: the structure of an HTML or JSON body, values left out');

const HTML = 'text/html; charset=UTF-8';
const JSON_TYPE = 'application/json';
const html = (body: string, token: string | null = null) => bodyFingerprint(HTML, body, token)!;
const json = (body: string, token: string | null = null) => bodyFingerprint(JSON_TYPE, body, token)!;
const page = (body: string) => `<!DOCTYPE html><html><head><title>Orders</title></head><body>${body}</body></html>`;

test('when only text, comments, script content and attributes other than id and class change, then HTML is the same', () => {
  const a = html(
    page(
      '<h1 title="x">Orders</h1><!-- a --><script>if (a<b) x("<p>")</script><a href="/_profiler/3f2a1c">3f2a1c, 12.3 ms</a>',
    ),
  );
  const b = html(
    page('<h1 title="y > z">Commandes</h1><!-- bb --><script>1</script><a href="/_profiler/ef893c">ef893c, 1.2 ms</a>'),
  );
  assert.equal(a, b);
  assert.is(a.kind, 'html');
  assert.is(a.nodes, 7);
  assert.match(a.hash, /^[0-9a-f]{8}$/);
});

test('when a tag, an id, a class or the nesting changes, then HTML differs', () => {
  const base = html(page('<div id="main" class="card exc"><p>a</p></div><p>b</p>'));
  for (const changed of [
    '<section id="main" class="card exc"><p>a</p></section><p>b</p>',
    '<div id="other" class="card exc"><p>a</p></div><p>b</p>',
    '<div id="main" class="card"><p>a</p></div><p>b</p>',
    '<div id="main" class="card exc"><p>a</p><p>b</p></div>',
  ])
    assert.is.not(html(page(changed)).hash, base.hash, changed);
  // tests/cli/replay-diff-body-structure.test.ts: same title, the table became a list
  assert.is.not(
    html(page('<h1>Orders</h1><table><tr><th>Id</th></tr><tr><td>1</td></tr></table>')).hash,
    html(page('<h1>Orders</h1><ul><li>order 1</li></ul><p>Nothing else.</p>')).hash,
  );
});

test("when ids and classes hold the request's token, numbers, times or ports, then HTML is the same; case and spacing do not count", () => {
  const a = html(page('<div id="wdt-3f2a1c" class="t-12:30:01 port-8000  row-1">x</div>'), '3f2a1c');
  const b = html(page('<DIV ID="wdt-ef893c" CLASS=" t-09:05:59 port-54321 row-2 ">x</DIV>'), 'ef893c');
  assert.equal(a, b);
  assert.is.not(html('<p class="a1 2">').hash, html('<p class="a1">').hash);
});

test('when JSON keeps its keys and value types, then it is the same whatever the values and spacing', () => {
  assert.equal(
    json('{"orders":[{"id":1,"name":"a","ok":true,"x":null}]}'),
    json('{ "orders": [ { "id": -2.5e3, "name": "b \\" c", "ok": false, "x": null } ] }'),
  );
  assert.equal(json('{"3f2a1c":{"took":"12 ms"}}', '3f2a1c'), json('{"ef893c":{"took":"3 ms"}}', 'ef893c'));
});

test('when JSON of the same size changes keys, value types or nesting, then it differs', () => {
  const base = json('{"orders":[{"id":1}]}');
  assert.is(base.nodes, 4);
  for (const changed of [
    '{"errors":[{"no":1}]}',
    '{"orders":[{"id":"1"}]}',
    '{"orders":[{"id":1},{"id":2}]}',
    '{"orders":{"id":[1]}}',
  ]) {
    assert.is.not(json(changed).hash, base.hash, changed);
  }
});

test('when the body is neither HTML nor JSON, a stream, or over the cap, then null; +json types and Buffers count', () => {
  assert.is(bodyFingerprint('text/plain', 'x', null), null);
  assert.is(bodyFingerprint(null, '{}', null), null);
  assert.is(bodyFingerprint(HTML, Readable.from(['<p>']), null), null);
  assert.is(bodyFingerprint(HTML, `<p>${'x'.repeat(FINGERPRINT_CAP)}</p>`, null), null);
  assert.equal(bodyFingerprint('application/problem+json', Buffer.from('{"a":1}'), null), json('{"a":2}'));
  assert.equal(html(''), { kind: 'html', nodes: 0, hash: html('just text').hash });
});

test('when an unclosed tag, comment, string or script ends the body, then it still returns', () => {
  for (const body of ['<p class="a', '<!-- x', '<script>x', '<', '< p>']) assert.is(html(body).kind, 'html');
  for (const body of ['{"a', '{"a":', '[1,', '"\\']) assert.is(json(body).kind, 'json');
});

test('when two profiles have other structures, then diff rows "body structure" make them differ; a missing fingerprint does not', () => {
  const a = sampleProfile({ token: 'aaaaaa' });
  const b = sampleProfile({ token: 'bbbbbb' });
  a.collectors.request.response.structure = { kind: 'html', nodes: 3, hash: 'aaaaaaaa' };
  b.collectors.request.response.structure = { kind: 'html', nodes: 3, hash: 'bbbbbbbb' };
  const row = diffReplay(a, b).rows.find((r) => r.field === 'body structure')!;
  assert.equal(row, {
    field: 'body structure',
    a: 'html, 3 elements, #aaaaaaaa',
    b: 'html, 3 elements, #bbbbbbbb',
    same: false,
  });
  assert.not.ok(diffProfiles(a, b).same);
  delete b.collectors.request.response.structure;
  const old = diffProfiles(a, b).rows.find((r) => r.field === 'body structure')!;
  assert.equal([old.b, old.same], ['(not recorded)', true]);
});

test("when two HTML pages of the same structure differ in size only (the toolbar's time), then profiles diff counts them the same; JSON sizes still count", () => {
  const a = sampleProfile();
  const b = sampleProfile({ token: 'ffffff' });
  for (const [p, size] of [
    [a, 24720],
    [b, 24722],
  ] as const) {
    p.collectors.request.response.contentType = HTML;
    p.collectors.request.response.size = size;
    p.collectors.request.response.structure = { kind: 'html', nodes: 90, hash: 'aaaaaaaa' };
  }
  const size = diffProfiles(a, b).rows.find((r) => r.field === 'response size')!;
  assert.equal(size, { field: 'response size', a: '24720', b: '24722', same: true });
  assert.ok(diffProfiles(a, b).same);
  delete b.collectors.request.response.structure;
  assert.not.ok(
    diffProfiles(a, b).rows.find((r) => r.field === 'response size')!.same,
    'without a structure to stand for it, the size counts',
  );
  for (const p of [a, b]) {
    p.collectors.request.response.contentType = JSON_TYPE;
    p.collectors.request.response.structure = { kind: 'json', nodes: 3, hash: 'cccccccc' };
  }
  assert.not.ok(diffProfiles(a, b).same, 'a JSON body of another size differs');
});

test.run();
