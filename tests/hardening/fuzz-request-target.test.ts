import fc from 'fast-check';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { parseQuery, Request, safeDecode } from '../../core/http/request.js';
import { decodeParameter, toMatchPath } from '../../core/routing/match-path.js';
import type { Kernel } from '../../core/kernel/kernel.js';
import { fuzzRuns } from '../helpers/corpus.js';
import { fuzzKernel, handle, hostileTarget, method } from './fuzz-kernel.js';

const test = suite('request targets under a property-based fuzz: nothing but the documented answers');
let kernel: Kernel;
let close: () => Promise<void>;

test.before(async () => {
  ({ kernel, close } = await fuzzKernel());
});
test.after(async () => {
  await close();
});

const anyText = fc.oneof(hostileTarget, fc.string({ unit: 'binary' }), fc.string({ unit: 'grapheme' }));

test('when any target is parsed into a Request, then it never throws and path plus query give the target back', () => {
  fc.assert(
    fc.property(anyText, method, (target, m) => {
      const request = new Request({ method: m, target, headers: {} });
      assert.is(request.path + (target.includes('?') ? `?${request.queryString}` : ''), target);
      assert.not.ok(request.path.includes('?'));
      assert.is(request.method, m.toUpperCase());
      for (const [name, value] of Object.entries(request.query)) {
        assert.type(name, 'string');
        for (const v of Array.isArray(value) ? value : [value]) assert.type(v, 'string');
      }
    }),
    fuzzRuns(3000, 'fuzz-request-target 1'),
  );
});

test('when any query string is parsed or any component decoded, then nothing throws and a malformed escape is kept as sent', () => {
  fc.assert(
    fc.property(anyText, (text) => {
      parseQuery(text);
      const decoded = safeDecode(text);
      assert.type(decoded, 'string');
      let strict: string | null;
      try {
        strict = decodeURIComponent(text.replace(/\+/g, ' '));
      } catch {
        strict = null;
      }
      assert.is(decoded, strict ?? text.replace(/\+/g, ' '));
    }),
    fuzzRuns(3000, 'fuzz-request-target 2'),
  );
});

test('when any path becomes a match path, then nothing throws, every "%" starts one escape, and doing it twice changes nothing', () => {
  fc.assert(
    fc.property(anyText, (path) => {
      const match = toMatchPath(path);
      assert.not.match(match, /%(?![0-9A-F]{2})/, `a bare % in ${JSON.stringify(match)}`);
      assert.is(toMatchPath(match), match);
      assert.type(decodeParameter(match), 'string');
      assert.type(decodeParameter(path), 'string');
    }),
    fuzzRuns(5000, 'fuzz-request-target 3'),
  );
});

test('when any method and target reach the kernel, then the answer is a documented one and only routing errors are thrown', async () => {
  const seen = new Set<number>();
  await fc.assert(
    fc.asyncProperty(method, hostileTarget, async (m, target) => {
      const { request, token, response, body, errors } = await handle(kernel, m, target);
      const status = response.status;
      seen.add(status);
      assert.ok(token !== null, 'profiled');
      if (request.attributes.route === 'boom') return; // the demo's own failing controller: its 500 is by design
      assert.ok(
        [200, 301, 302, 404, 405].includes(status),
        `${m} ${JSON.stringify(target)} answered ${status}: ${errors.join(' <- ')}`,
      );
      if (status === 404 && request.attributes.route === null) {
        assert.equal(errors, ['NotFoundHttpError', 'ResourceNotFoundError']);
        assert.ok(body.includes('No route found for'), 'the 404 names the request');
      } else if (status === 404) {
        assert.equal(errors, ['NotFoundHttpError'], `${m} ${JSON.stringify(target)}`);
        assert.match(
          body,
          /Token &quot;[^]*&quot; not found\.|Panel &quot;[^]*&quot; is not available|No profile has been recorded yet\./,
        );
      } else if (status === 405) {
        assert.equal(errors, ['MethodNotAllowedHttpError', 'MethodNotAllowedError']);
        assert.ok(response.header('allow'), 'a 405 carries Allow');
      } else {
        assert.equal(errors, []);
      }
      if (status === 301 || status === 302) assert.match(response.header('location') ?? '', /^http:\/\/fuzz\.test\//);
    }),
    fuzzRuns(1500, 'fuzz-request-target 4'),
  );
  for (const status of [200, 404, 405])
    assert.ok(seen.has(status), `the fuzz reached a ${status}: ${[...seen].join(', ')}`);
});

test.run();
