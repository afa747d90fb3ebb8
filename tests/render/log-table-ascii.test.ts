import { load } from 'cheerio';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { renderLogTable } from '../../render/log-table.js';

const test = suite('renderLogTable: its own marks written as character references');

test('given a context longer than its folded line, when rendered, then the cut is marked with &hellip; and the HTML stays ASCII', () => {
  const html = renderLogTable([
    {
      time: 1,
      level: 'ERROR',
      channel: 'request',
      message: 'Uncaught exception',
      context: { message: 'x'.repeat(400) },
    },
  ]);
  assert.ok(/^[\x00-\x7f]*$/.test(html), html.match(/[^\x00-\x7f]/)?.[0]);
  const summary = load(html)('summary code').text();
  assert.is(summary, `{"message":"${'x'.repeat(147)}\u2026`);
});

test.run();
