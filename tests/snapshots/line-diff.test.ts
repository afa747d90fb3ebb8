import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { diffLines, lineDiff } from '../../snapshots/index.js';

const test = suite('lineDiff');

test('when the texts are equal, then the diff is empty', () => {
  assert.is(lineDiff('a\nb\n', 'a\nb\n'), '');
});

test('should show a changed line as - expected / + actual with three lines of context', () => {
  const expected = [
    'title "x"',
    'main',
    '  h1 "Error 404 Not Found"',
    '  p "a"',
    '  p "b"',
    '  p "c"',
    '  p "d"',
    '',
  ].join('\n');
  const actual = expected.replace('Error 404 Not Found', 'Page Not Found');
  assert.is(
    lineDiff(expected, actual),
    [
      '--- expected',
      '+++ actual',
      '@@ -1,6 +1,6 @@',
      '  title "x"',
      '  main',
      '-   h1 "Error 404 Not Found"',
      '+   h1 "Page Not Found"',
      '    p "a"',
      '    p "b"',
      '    p "c"',
      '',
    ].join('\n'),
  );
});

test('should split far-apart changes into hunks with their own line numbers, and merge close ones', () => {
  const lines = Array.from({ length: 20 }, (_, i) => `line ${i + 1}`);
  const changed = lines.map((l, i) => (i === 1 || i === 17 ? `${l}!` : l));
  const diff = lineDiff(`${lines.join('\n')}\n`, `${changed.join('\n')}\n`, {
    context: 1,
    labels: ['a.snap.txt', 'now'],
  });
  assert.is(
    diff,
    [
      '--- a.snap.txt',
      '+++ now',
      '@@ -1,3 +1,3 @@',
      '  line 1',
      '- line 2',
      '+ line 2!',
      '  line 3',
      '@@ -17,3 +17,3 @@',
      '  line 17',
      '- line 18',
      '+ line 18!',
      '  line 19',
      '',
    ].join('\n'),
  );
  const close = lines.map((l, i) => (i === 4 || i === 6 ? `${l}!` : l));
  assert.is((lineDiff(lines.join('\n'), close.join('\n'), { context: 1 }).match(/^@@/gm) ?? []).length, 1);
});

test('should show added and removed lines at the ends', () => {
  assert.is(lineDiff('', 'x\n'), '--- expected\n+++ actual\n@@ -0,0 +1,1 @@\n+ x\n');
  assert.is(lineDiff('a\nb\n', 'a\n'), '--- expected\n+++ actual\n@@ -1,2 +1,1 @@\n  a\n- b\n');
});

test('diffLines: the script rebuilds both sides and keeps a longest common subsequence (seeded random lists)', () => {
  let seed = 7;
  const random = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
  const list = () => Array.from({ length: Math.floor(random() * 10) }, () => 'abc'[Math.floor(random() * 3)]!);
  const lcs = (a: string[], b: string[]): number => {
    const dp = Array.from({ length: a.length + 1 }, () => new Array<number>(b.length + 1).fill(0));
    for (let i = a.length - 1; i >= 0; i--)
      for (let j = b.length - 1; j >= 0; j--) {
        dp[i]![j] = a[i] === b[j] ? dp[i + 1]![j + 1]! + 1 : Math.max(dp[i + 1]![j]!, dp[i]![j + 1]!);
      }
    return dp[0]![0]!;
  };
  for (let n = 0; n < 500; n++) {
    const [a, b] = [list(), list()];
    const ops = diffLines(a, b);
    assert.equal(
      ops.filter((o) => o.kind !== 'added').map((o) => o.line),
      a,
    );
    assert.equal(
      ops.filter((o) => o.kind !== 'removed').map((o) => o.line),
      b,
    );
    assert.is(ops.filter((o) => o.kind === 'same').length, lcs(a, b), `${a.join('')} / ${b.join('')}`);
  }
});

test.run();
