import fc from 'fast-check';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { Kernel } from '../../core/kernel/kernel.js';
import { BUILT_IN_PANEL_NAMES } from '../../panels/registry.js';
import { generateToken, isValidToken } from '../../core/profiler/token.js';
import type { TempStore } from '../core/profiler/storage/temp-store.js';
import { fuzzRuns } from '../helpers/corpus.js';
import { fuzzKernel, handle } from './fuzz-kernel.js';
import type { ProfileIntake } from '../../core/profiler/handoff/profile-intake.js';

const test = suite('profile tokens and panel names under a property-based fuzz: nothing but the documented answers');
let kernel: Kernel;
let store: TempStore;
let close: () => Promise<void>;
let intake: ProfileIntake;
let token: string;

test.before(async () => {
  ({ kernel, store, intake, close } = await fuzzKernel());
  token = (await handle(kernel, 'GET', '/hello/fuzz')).token!;
  await intake.flush();
});
test.after(async () => {
  await close();
});

const HEX = '0123456789abcdef';
/** Near misses: hex of other lengths and cases, traversal, separators, unicode look-alikes, NUL. */
const tokenLike = fc.oneof(
  fc.string({ unit: fc.constantFrom(...`${HEX}ABCDEFgxyz`.split('')), maxLength: 8 }),
  fc.string({
    unit: fc.constantFrom(...HEX.split(''), '.', '/', '\\', '%', '\0', '\n', ' ', '\uff10', '\u0430'),
    maxLength: 10,
  }),
  fc.string({ unit: 'binary', maxLength: 10 }),
  fc.constantFrom(
    'latest',
    '..',
    '../../etc/passwd',
    '%2e%2e',
    'abc12',
    'abc1234',
    'ABC123',
    'abc123\n',
    ' abc123',
    'abc12\0',
  ),
);
const isHexToken = (s: string) => s.length === 6 && [...s].every((c) => HEX.includes(c));

test('when any string is checked, then it is valid exactly when it is 6 lowercase hex characters', () => {
  fc.assert(
    fc.property(tokenLike, (s) => assert.is(isValidToken(s), isHexToken(s), JSON.stringify(s))),
    fuzzRuns(10_000, 'fuzz-token-validation 1'),
  );
});

test('when tokens are generated against any set of taken ones, then each is valid and free', () => {
  fc.assert(
    fc.property(
      fc.uniqueArray(fc.string({ unit: fc.constantFrom(...HEX.split('')), minLength: 6, maxLength: 6 }), {
        maxLength: 50,
      }),
      (taken) => {
        const set = new Set(taken);
        const fresh = generateToken((t) => set.has(t));
        assert.ok(isValidToken(fresh));
        assert.not.ok(set.has(fresh));
      },
    ),
    fuzzRuns(500, 'fuzz-token-validation 2'),
  );
});

test('when the store is asked for any string, then an invalid token is unknown (null) and nothing throws', async () => {
  await fc.assert(
    fc.asyncProperty(tokenLike, async (s) => {
      const profile = await intake.read(s);
      if (!isHexToken(s)) assert.is(profile, null);
      else if (s === token) assert.is(profile?.token, token);
      if (!isHexToken(s)) assert.not.ok(store.storage.has(s), JSON.stringify(s));
    }),
    fuzzRuns(3000, 'fuzz-token-validation 3'),
  );
});

test('when any token is asked for as a page or as JSON, then it is the profile, or a 404 naming the token', async () => {
  const seen = new Set<number>();
  await fc.assert(
    fc.asyncProperty(tokenLike, fc.boolean(), async (s, json) => {
      const target = `/_profiler/${encodeURIComponent(s)}${json ? '.json' : ''}`;
      const { response, body, errors } = await handle(kernel, 'GET', target);
      seen.add(response.status);
      if (!json && (s === '' || s === 'search')) return; // the profiler's home (a redirect) and its search page
      const trimmed = s.replace(/\/+$/, '');
      const moved = /^(empty|[0-9a-f]{6})\/search\/results\/?$/.test(s)
        ? '/_profiler/search'
        : trimmed !== s && (isValidToken(trimmed) || trimmed === 'search' || trimmed === 'latest')
          ? `/_profiler/${trimmed}`
          : null;
      if (!json && moved !== null) {
        // A trailing slash, or Symfony's search address: the address it means.
        assert.is(response.status, 301, target);
        assert.ok(response.header('location')?.endsWith(moved), `${target}: ${response.header('location')}`);
        return;
      }
      if (response.status === 200) {
        // the fuzz's own requests are profiled too: a token drawn at random may be one of theirs
        const stored = isValidToken(s) ? await intake.read(s) : null;
        assert.ok(s === token || s === 'latest' || stored?.token === s, `${target} answered 200`);
        return;
      }
      assert.is(response.status, 404, `${target}: ${errors.join(' <- ')}`);
      assert.equal(errors, ['NotFoundHttpError'], target);
      assert.ok(body.includes('not found.'), `${target}: ${body.slice(0, 200)}`);
    }),
    fuzzRuns(2000, 'fuzz-token-validation 4'),
  );
  assert.ok(seen.has(404));
});

test('when any panel name is asked for on a real profile, then it is shown, or a 404 naming panel and token', async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.oneof(
        fc.constantFrom(
          ...BUILT_IN_PANEL_NAMES,
          'logger',
          'performance',
          'routing',
          '',
          '__proto__',
          'constructor',
          'toString',
        ),
        fc.string({ unit: 'binary', maxLength: 12 }),
      ),
      async (panel) => {
        const { response, body, errors } = await handle(
          kernel,
          'GET',
          `/_profiler/${token}?panel=${encodeURIComponent(panel)}`,
        );
        const known =
          (BUILT_IN_PANEL_NAMES as readonly string[]).includes(panel) ||
          ['logger', 'performance', 'routing', ''].includes(panel);
        assert.is(response.status, known ? 200 : 404, `panel ${JSON.stringify(panel)}: ${errors.join(' <- ')}`);
        if (!known) {
          assert.equal(errors, ['NotFoundHttpError']);
          assert.ok(body.includes(`is not available for token &quot;${token}&quot;.`), body.slice(0, 300));
        }
      },
    ),
    fuzzRuns(2000, 'fuzz-token-validation 5'),
  );
});

test.run();
