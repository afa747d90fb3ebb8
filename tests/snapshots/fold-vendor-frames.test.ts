import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { foldVendorFrames, outline } from '../../snapshots/index.js';

const ERROR_PAGE = `<html><body><div class="card exc"><h3>Error</h3>
<ol class="frames"><li class="frame-app"><span class="fn">checkStock</span> in <span class="file">src/shop.ts</span> line 7</li></ol>
<details><summary>3 vendor/internal frames</summary><ol class="frames">
<li class="frame-vendor"><span class="fn">Kernel.handle</span> in <span class="file">node_modules/appkernel/dist/kernel.js</span> line 55</li>
<li class="frame-internal"><span class="fn">Server.emit</span> in <span class="file">node:events</span> line 524</li>
<li class="frame-internal"><span class="fn">parserOnIncoming</span> in <span class="file">node:_http_server</span> line 1139</li>
</ol></details></div>
<pre class="trace">Error:
Out of stock

  at checkStock (src/shop.ts:7:11)
  at Kernel.handle (node_modules/appkernel/dist/kernel.js:55:27)
  at Server.emit (node:events:524:28)
  at parserOnIncoming
  at retry (src/shop.ts:20:3)</pre></body></html>`;

const test = suite('foldVendorFrames');

test("should drop vendor and internal frame items and the count of their summary, keeping the app's frames", () => {
  const $ = outline(foldVendorFrames(ERROR_PAGE), { root: '/app' });
  assert.ok($.includes('li.frame-app "checkStock in src/shop.ts line 7"'), $);
  assert.ok($.includes('summary "vendor/internal frames"'), $);
  assert.not.ok(/Kernel\.handle in|Server\.emit in|3 vendor/.test($), $);
});

test("when a trace has runs of non-app frames, then each run becomes one line, between the app's own frames", () => {
  const $ = outline(foldVendorFrames(ERROR_PAGE), { root: '/app', select: 'pre.trace' });
  assert.is(
    $,
    [
      'pre.trace',
      '  > Error:',
      '  > Out of stock',
      '  >',
      '  >   at checkStock (src/shop.ts:7:11)',
      '  >   at … (vendor/internal frames)',
      '  >   at retry (src/shop.ts:20:3)',
      '',
    ].join('\n'),
  );
});

test('when the page has no frames, then it comes back as given', () => {
  const page = '<html><body><h1>Hello</h1><pre>  at nothing (x.ts:1:1)</pre></body></html>';
  assert.is(foldVendorFrames(page), page);
});

test.run();
