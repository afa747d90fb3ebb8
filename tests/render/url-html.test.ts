import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { urlHtml } from '../../render/url-html.js';

test('a URL may wrap after each / ? & of its path and query, not inside its origin', () => {
  assert.is(
    urlHtml('http://127.0.0.1:8000/api/items?a=1&b=2'),
    '<span class="url-text">http://127.0.0.1:8000/<wbr>api/<wbr>items?<wbr>a=1&amp;<wbr>b=2</span>',
  );
  assert.is(urlHtml('/hello'), '<span class="url-text">/<wbr>hello</span>');
});

test('every piece is escaped, and a long URL is cut with an ellipsis', () => {
  assert.is(urlHtml('/<script>?"x"'), '<span class="url-text">/<wbr>&lt;script&gt;?<wbr>&quot;x&quot;</span>');
  assert.is(urlHtml('/abcdef', 4), '<span class="url-text">/<wbr>abc&hellip;</span>');
});

test.run();
