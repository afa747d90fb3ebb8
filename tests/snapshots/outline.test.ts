import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { outline } from '../../snapshots/index.js';

const PAGE = `<!doctype html>
<html><head><title>Error 404 Not Found (404)</title>
<style>h1 { color: red }</style><script>window.x = 1</script></head>
<body>
  <!-- toolbar goes here -->
  <header id="top" class="exception-summary">
    <h1>Error <span class="code">404</span>   Not Found</h1>
    <p>Profile <a href="/_profiler/3f2a1c">3f2a1c</a> recorded 2024-05-01 12:00:00 UTC in 12.3 ms</p>
  </header>
  <main>
    <p class="message">No route found for "GET http://127.0.0.1:54321/robots.txt"</p>
    <table class="logs">
      <thead><tr><th>Level</th><th>Channel</th><th>Message</th></tr></thead>
      <tbody>
        <tr><td>ERROR</td><td>request</td><td>Uncaught <code>NotFoundHttpError</code></td></tr>
        <tr><td>DEBUG</td><td>event</td><td>See <a href="/_profiler/3f2a1c?panel=events">events</a></td></tr>
      </tbody>
    </table>
    <form method="get" action="/_profiler/search">
      <label>IP</label> <input type="text" name="ip" value="">
      <select name="limit"><option>10</option><option selected>50</option></select>
      <button type="submit">Search</button>
    </form>
    <pre>
      at checkStock (/work/app/src/shop.ts:7:11)
        at process.processTicksAndRejections (node:internal/process/task_queues:95:5)
    </pre>
  </main>
  <svg class="icon"><path d="M0 0h24v24H0z"/></svg>
</body></html>`;

const test = suite('outline');

test('should outline a page as one line per node, indented by depth, with volatile values replaced', () => {
  assert.is(
    outline(PAGE, { root: '/work/app' }),
    `title "Error 404 Not Found (404)"
header#top.exception-summary
  h1 "Error 404 Not Found"
  p
    "Profile"
    a[href=/_profiler/<TOKEN>] "<TOKEN>"
    "recorded <TIME> in <DURATION>"
main
  p.message "No route found for "GET http://<HOST>/robots.txt""
  table.logs
    | Level | Channel | Message |
    | ERROR | request | Uncaught NotFoundHttpError |
    | DEBUG | event | See [events](/_profiler/<TOKEN>?panel=events) |
  form[method=get action=/_profiler/search]
    "IP"
    input[type=text name=ip value=""]
    select[name=limit]
      option "10"
      option[selected] "50"
    button[type=submit] "Search"
  pre
    > at checkStock (<ROOT>/src/shop.ts:7:11)
    >   at process.processTicksAndRejections (node:internal/process/task_queues:<LINE>)
`,
  );
});

test('should be the same text for the same page, whatever its whitespace and volatile values', () => {
  const [top, pre] = PAGE.split('<pre>') as [string, string];
  const other = `${top.replace(/\n\s*/g, '\n  ')}<pre>${pre}`
    .replace(/3f2a1c/g, '9e8d7c')
    .replace('54321', '8000')
    .replace('12.3 ms', '7.9 ms');
  assert.is(outline(other, { root: '/work/app' }), outline(PAGE, { root: '/work/app' }));
});

test('should drop scripts, styles, comments and icons', () => {
  const text = outline(PAGE);
  for (const gone of ['window.x', 'color: red', 'toolbar goes here', 'svg', 'path'])
    assert.not.ok(text.includes(gone), gone);
});

test('when select is given, then only the matching elements are outlined, from depth 0', () => {
  assert.is(
    outline(PAGE, { select: 'table.logs thead' }),
    'thead\n  tr\n    th "Level"\n    th "Channel"\n    th "Message"\n',
  );
});

test('when keepClass filters, then only the kept classes show', () => {
  const html = '<div class="panel is-open mt-4"><p class="message">hi</p></div>';
  assert.is(outline(html, { keepClass: (c) => !/^(is-|mt-)/.test(c) }), 'div.panel\n  p.message "hi"\n');
});

test('should cut long text with an ellipsis at maxText', () => {
  assert.is(outline(`<p>${'word '.repeat(10)}</p>`, { maxText: 12 }), 'p "word word w…"\n');
});

test('when normalisers are given, then they replace the defaults, in text and attribute values', () => {
  const upper = (text: string) => text.toUpperCase();
  assert.is(
    outline('<a href="/x/3f2a1c">at 12:00:00</a>', { normalisers: [upper] }),
    'a[href=/X/3F2A1C] "AT 12:00:00"\n',
  );
});

test('should quote attribute values with spaces and show boolean attributes bare', () => {
  assert.is(
    outline('<input type="checkbox" name="remember me" checked disabled>'),
    'input[type=checkbox name="remember me" checked disabled]\n',
  );
});

test('when an inline element meets a letter or digit on both sides, then a space separates them (so normalisers see the value)', () => {
  assert.is(
    outline('<a href="/t">Performance<span class="badge">3.4 ms</span></a><p><code>NotFoundHttpError</code>: gone</p>'),
    'a[href=/t] "Performance <DURATION>"\np "NotFoundHttpError: gone"\n',
  );
  assert.is(outline('<table><tr><td>DEBUG<time>09:41:07</time></td></tr></table>'), 'table\n  | DEBUG <TIME> |\n');
});

test('when a <details> is open, then its head says so, since closed content is hidden on screen', () => {
  assert.is(
    outline('<details open><summary>2 frames</summary><p>x</p></details><details><summary>1 frame</summary></details>'),
    'details[open]\n  summary "2 frames"\n  p "x"\ndetails\n  summary "1 frame"\n',
  );
});

test('should keep highlighted code in <pre> exactly as written', () => {
  assert.is(outline('<pre><span>fn</span><span>(</span>1<span>)</span></pre>'), 'pre\n  > fn(1)\n');
});

test('should keep text that sits directly in the body', () => {
  assert.is(outline('<body>Hello <b>you</b><p>there</p>bye</body>'), '"Hello you"\np "there"\n"bye"\n');
});

test('should run inline text and punctuation together, keep blocks apart and read <br> as a space', () => {
  assert.is(
    outline('<div><p>one</p><p>two</p></div><p>(<b>bold</b>), then<br>next</p>'),
    'div\n  p "one"\n  p "two"\np "(bold), then next"\n',
  );
});

test.run();
