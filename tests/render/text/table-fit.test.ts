import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { paint } from '../../../render/text/ansi.js';
import { renderFields } from '../../../render/text/blocks.js';
import { visibleWidth } from '../../../render/text/fit.js';
import { renderTable, type TextColumn } from '../../../render/text/table.js';

const test = suite("renderTable and renderFields fitted to the terminal's width");

const SGR = /\x1b\[[0-9;]*m/g;
const lines = (text: string) => text.split('\n').slice(0, -1);
const widest = (text: string) => Math.max(...lines(text).map(visibleWidth));
const long = 'http://127.0.0.1:8000/hello/world?page=2&sort=name&filter=active&view=compact&lang=en';
const message =
  'Matched route "hello" for the request to /hello/world with the parameters name and page, after trying 4 routes.';

test('East Asian wide characters and emoji take two columns, styling none', () => {
  assert.is(visibleWidth('你好'), 4);
  assert.is(visibleWidth('😀'), 2);
  assert.is(visibleWidth('café'), 4);
  assert.is(visibleWidth(paint('abc', 'red', true)), 3);
});

test('when a cell holds wide characters and emoji, then the next column still starts at the same screen column', () => {
  const text = renderTable(
    [{ title: 'Name' }, { title: 'Value' }],
    [
      ['你好😀', 'x'],
      ['ann', 'y'],
      ['Zoë', 'z'],
    ],
    { color: false },
  );
  const starts = lines(text).map((l) => visibleWidth(l.slice(0, l.search(/[-xyzV]\S*$/))));
  assert.equal(new Set(starts).size, 1, text);
  assert.is(lines(text)[2], '你好😀  x');
});

test('when colour is on, then the alignment is the same as without it', () => {
  const rows = (color: boolean) => [[paint('404', 'yellow', color), paint('你好', 'cyan', color), 'z']];
  const plain = renderTable([{ title: 'Status' }, { title: 'Name' }, { title: 'Z' }], rows(false), { color: false });
  const colored = renderTable([{ title: 'Status' }, { title: 'Name' }, { title: 'Z' }], rows(true), { color: true });
  assert.is(colored.replace(SGR, ''), plain);
});

test('when a cell holds a line break, then each of its lines starts under its column, a wrapped indented line keeping its indent', () => {
  const cell =
    'Matched route "hello".\n  {"route": "hello", "method": "GET", "request_uri": "http://127.0.0.1:8000/hello"}';
  const text = renderTable(
    [{ title: 'Level' }, { title: 'Message', overflow: 'wrap' }],
    [
      ['INFO', cell],
      ['DEBUG', 'short'],
    ],
    { color: false, width: 50 },
  );
  assert.equal(lines(text), [
    'Level  Message',
    '-----  -------------------------------------------',
    'INFO   Matched route "hello".',
    '         {"route": "hello", "method": "GET",',
    '         "request_uri":',
    '         "http://127.0.0.1:8000/hello"}',
    'DEBUG  short',
  ]);
});

test('when a cell holds a line break and there is room, then the column is as wide as its widest line, not the two together', () => {
  const text = renderTable([{ title: 'A' }, { title: 'B' }], [['one\ntwo-two', 'x']], { color: false });
  assert.equal(lines(text), ['A        B', '-------  -', 'one      x', 'two-two']);
});

const columns: TextColumn[] = [
  { title: 'Status' },
  { title: 'URL', overflow: 'truncate' },
  { title: 'Message', overflow: 'wrap' },
];

for (const width of [80, 120]) {
  test(`when the table is wider than ${width} columns, then no line is wider, URLs end in an ellipsis and messages wrap`, () => {
    const text = renderTable(
      columns,
      [
        ['200', long, message],
        ['404', '/x', 'short'],
      ],
      { color: false, width },
    );
    assert.ok(widest(text) <= width, text);
    const first = lines(text)[2]!;
    assert.match(first, /^200 {5}http:\/\/127\.0\.0\.1:8000\/\S*… {2}Matched/);
    const words = lines(text)
      .slice(2, -1)
      .map((l) => l.slice(first.indexOf('Matched')))
      .join(' ');
    assert.is(
      words.replace(/\s+/g, ' ').trim(),
      message,
      'every word of the message, in order, on lines of its own column',
    );
    assert.match(lines(text).at(-1)!, /^404 {5}\/x {2,}short$/);
  });
}

test('when there is no width, then cells are never cut (--wide)', () => {
  const text = renderTable(columns, [['200', long, message]], { color: false });
  assert.ok(text.includes(long) && text.includes(message));
  assert.is(lines(text).length, 3);
});

test('when a styled cell is cut, then its styling is closed before the ellipsis line ends', () => {
  const text = renderTable(columns, [['200', paint(long, 'cyan', true), message]], { color: true, width: 80 });
  const row = lines(text)[2]!;
  assert.match(row, /\x1b\[36mhttp[^\x1b]*\x1b\[39m…/);
});

test('when a marker column has no title, then its rule is blank, so the rule starts under the first titled column', () => {
  const text = renderTable(
    [{ title: '', marker: true }, { title: 'Field' }, { title: 'A' }],
    [
      ['≠', 'status', '404'],
      ['', 'method', 'GET'],
    ],
    { color: false },
  );
  assert.is(text, ['   Field   A', '   ------  ---', '≠  status  404', '   method  GET', ''].join('\n'));
});

test("when a field's value is wider than the terminal, then it wraps under its first line", () => {
  const text = renderFields(
    [
      ['User-Agent', message],
      ['Host', '127.0.0.1'],
    ],
    { color: false, width: 60 },
  );
  assert.ok(widest(text) <= 60, text);
  const [first, second] = lines(text);
  assert.match(first!, /^User-Agent {2}Matched/);
  assert.match(second!, /^ {12}\S/);
  assert.match(lines(text).at(-1)!, /^Host {8}127\.0\.0\.1$/);
});

test.run();
