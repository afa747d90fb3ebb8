import fs from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';
import { resolve, sep } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { load } from 'cheerio';
import { fetchProfiled } from '../helpers/profiled-request.js';
import { fetchRawPath, serveForTest, type TestServer } from '../helpers/serve.js';

// Required: "Bad token, bad panel, `..`, `%2F`, upper-case and overlong tokens: the answers above,
// nothing read outside the store" and "Tokens are validated before anything touches the file system".
// profiler-pages.test.ts checks the status and that no /etc/passwd content comes back; here the store
// and the file system are watched while the bad requests are answered.

const VALID = /^[0-9a-f]{6}$/;
const test = suite(
  'bad profiler tokens and panels: the documented 404, no invalid token reaches the store, no file named by it is touched',
);
let t: TestServer;
/** a stored token with at least one letter, so that its upper-case form is a different string */
let token: string;
const tokensSeenByStorage: string[] = [];
let touched: string[] | null = null;

const FS_CALLS = [
  'openSync',
  'readFileSync',
  'statSync',
  'lstatSync',
  'readdirSync',
  'existsSync',
  'accessSync',
  'open',
  'readFile',
  'stat',
  'lstat',
  'readdir',
  'access',
  'createReadStream',
] as const;
const PROMISE_CALLS = ['open', 'readFile', 'stat', 'lstat', 'readdir', 'access'] as const;
const restore: (() => void)[] = [];

function spyOn(target: Record<string, unknown>, name: string): void {
  const original = target[name];
  if (typeof original !== 'function') return;
  target[name] = function (this: unknown, ...args: unknown[]) {
    const path = args[0];
    if (touched && (typeof path === 'string' || path instanceof URL || Buffer.isBuffer(path)))
      touched.push(String(path instanceof URL ? path.pathname : path));
    return (original as (...a: unknown[]) => unknown).apply(this, args);
  };
  restore.push(() => {
    target[name] = original;
  });
}

test.before(async () => {
  t = await serveForTest();
  do token = (await fetchProfiled(t, '/hello/world')).token;
  while (!/[a-f]/.test(token));
  const storage = t.server.storage! as unknown as Record<string, (...args: unknown[]) => unknown>;
  for (const method of ['read', 'has']) {
    const original = storage[method];
    storage[method] = function (this: unknown, ...args: unknown[]) {
      tokensSeenByStorage.push(String(args[0]));
      return original.apply(this, args);
    };
  }
  for (const name of FS_CALLS) spyOn(fs as unknown as Record<string, unknown>, name);
  for (const name of PROMISE_CALLS) spyOn(fs.promises as unknown as Record<string, unknown>, name);
  syncBuiltinESMExports();
});

test.after(async () => {
  for (const undo of restore) undo();
  syncBuiltinESMExports();
  await t.stop();
});

/** [raw request target, the exact message the 404 page must say, the token string as the server decodes it] */
const CASES = (): [string, string, string][] => [
  ['/_profiler/..', 'Token ".." not found.', '..'],
  ['/_profiler/%2e%2e', 'Token ".." not found.', '..'],
  ['/_profiler/../../etc/passwd', 'Token "../../etc/passwd" not found.', '../../etc/passwd'],
  ['/_profiler/..%2F..%2Fetc%2Fpasswd', 'Token "../../etc/passwd" not found.', '../../etc/passwd'],
  ['/_profiler/..%2f..%2f..%2fetc%2fhostname', 'Token "../../../etc/hostname" not found.', '../../../etc/hostname'],
  ['/_profiler/abc%2Fdef', 'Token "abc/def" not found.', 'abc/def'],
  [`/_profiler/${token.toUpperCase()}`, `Token "${token.toUpperCase()}" not found.`, token.toUpperCase()],
  [`/_profiler/${token.toUpperCase()}.json`, `Token "${token.toUpperCase()}" not found.`, token.toUpperCase()],
  [`/_profiler/${token}0`, `Token "${token}0" not found.`, `${token}0`],
  [`/_profiler/${token}0.json`, `Token "${token}0" not found.`, `${token}0`],
  [`/_profiler/${'a'.repeat(300)}`, `Token "${'a'.repeat(300)}" not found.`, 'a'.repeat(300)],
  [`/_profiler/${token.slice(0, 5)}`, `Token "${token.slice(0, 5)}" not found.`, token.slice(0, 5)],
  ['/_profiler/abcdeg', 'Token "abcdeg" not found.', 'abcdeg'],
];

test('when bad tokens are asked for, then 404 "Token "<token>" not found.", the storage is never handed an invalid token, and no file the token names is touched', async () => {
  const store = resolve(t.storeDir);
  for (const [target, message, decoded] of CASES()) {
    touched = [];
    const seenBefore = tokensSeenByStorage.length;
    const r = await fetchRawPath(t.base, target);
    const files = touched;
    touched = null;
    assert.is(r.status, 404, target);
    const said = target.endsWith('.json') ? JSON.parse(r.body).detail : load(r.body).root().text();
    assert.ok(said.includes(message), `${target}: expected ${message}\n${load(r.body)('title').text()}`);
    assert.not.ok(r.body.includes('root:x:0'), `${target} shows /etc/passwd`);
    const invalid = tokensSeenByStorage.slice(seenBefore).filter((s) => !VALID.test(s));
    assert.equal(invalid, [], `${target}: the storage was handed invalid tokens`);
    for (const file of files) {
      const path = resolve(file);
      assert.not.ok(/passwd|hostname/.test(path), `${target} touched ${path}`);
      if (decoded.length > 2) assert.not.ok(path.includes(decoded), `${target} touched ${path}, named by the token`);
      if (path.startsWith(store + sep))
        assert.not.ok(path.slice(store.length).includes(decoded), `${target} touched ${path} in the store`);
    }
  }
});

test('when a bad panel is asked for on a real token, then 404 "Panel "<name>" is not available for token "<token>"." and no file the panel names is touched', async () => {
  for (const [query, name] of [
    ['nope', 'nope'],
    ['..%2F..%2Fetc%2Fpasswd', '../../etc/passwd'],
    ['EXCEPTION', 'EXCEPTION'],
  ]) {
    touched = [];
    const r = await fetchRawPath(t.base, `/_profiler/${token}?panel=${query}&type=request`);
    const files = touched;
    touched = null;
    assert.is(r.status, 404, query);
    assert.ok(
      load(r.body).root().text().includes(`Panel "${name}" is not available for token "${token}".`),
      `${query}: ${load(r.body)('title').text()}`,
    );
    for (const file of files) assert.not.ok(/passwd/.test(file), `panel ${query} touched ${file}`);
  }
});

test('when the real token is asked for, then 200: the checks above are not passing because nothing is ever read', async () => {
  touched = [];
  const r = await fetchRawPath(t.base, `/_profiler/${token}?panel=request`);
  touched = null;
  assert.is(r.status, 200);
  assert.ok(tokensSeenByStorage.includes(token), 'the storage was asked for the real token');
});

test.run();
