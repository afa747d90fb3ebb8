export type DiffOp = { kind: 'same' | 'removed' | 'added'; line: string };

/**
 * The shortest edit script between two line lists (Myers' O(ND) algorithm), after the common
 * prefix and suffix are set aside, so that a one-line change in a long outline stays cheap.
 */
export function diffLines(expected: readonly string[], actual: readonly string[]): DiffOp[] {
  let start = 0;
  while (start < expected.length && start < actual.length && expected[start] === actual[start]) start++;
  let endA = expected.length;
  let endB = actual.length;
  while (endA > start && endB > start && expected[endA - 1] === actual[endB - 1]) {
    endA--;
    endB--;
  }
  const same = (lines: readonly string[]) => lines.map((line) => ({ kind: 'same' as const, line }));
  return [
    ...same(expected.slice(0, start)),
    ...myers(expected.slice(start, endA), actual.slice(start, endB)),
    ...same(expected.slice(endA)),
  ];
}

function myers(a: readonly string[], b: readonly string[]): DiffOp[] {
  const n = a.length;
  const m = b.length;
  const max = n + m;
  const offset = max + 1;
  const v = new Int32Array(2 * max + 3);
  const trace: Int32Array[] = [];
  let found = max === 0;
  for (let d = 0; d <= max && !found; d++) {
    trace.push(v.slice());
    for (let k = -d; k <= d; k += 2) {
      let x =
        k === -d || (k !== d && v[offset + k - 1]! < v[offset + k + 1]!) ? v[offset + k + 1]! : v[offset + k - 1]! + 1;
      let y = x - k;
      while (x < n && y < m && a[x] === b[y]) {
        x++;
        y++;
      }
      v[offset + k] = x;
      if (x >= n && y >= m) {
        found = true;
        break;
      }
    }
  }
  // Walk the saved frontiers back from (n, m) to (0, 0), emitting the edit script in reverse.
  const ops: DiffOp[] = [];
  let x = n;
  let y = m;
  for (let d = trace.length - 1; d >= 0 && (x > 0 || y > 0); d--) {
    const frontier = trace[d]!;
    const k = x - y;
    const down = k === -d || (k !== d && frontier[offset + k - 1]! < frontier[offset + k + 1]!);
    const prevK = down ? k + 1 : k - 1;
    const prevX = d === 0 ? 0 : frontier[offset + prevK]!;
    const prevY = prevX - prevK;
    while (x > prevX && y > prevY && x > 0 && y > 0 && a[x - 1] === b[y - 1]) {
      ops.push({ kind: 'same', line: a[x - 1]! });
      x--;
      y--;
    }
    if (d === 0) break;
    if (down) {
      ops.push({ kind: 'added', line: b[y - 1]! });
      y--;
    } else {
      ops.push({ kind: 'removed', line: a[x - 1]! });
      x--;
    }
  }
  while (x > 0 && y > 0) {
    ops.push({ kind: 'same', line: a[x - 1]! });
    x--;
    y--;
  }
  return ops.reverse();
}

/**
 * A unified-style diff of two texts: `@@ -from,count +from,count @@` hunks with `context` unchanged
 * lines around each change, `- ` for expected lines, `+ ` for actual ones. Empty when they are equal.
 */
export function lineDiff(
  expected: string,
  actual: string,
  options: { context?: number; labels?: [string, string] } = {},
): string {
  if (expected === actual) return '';
  const context = options.context ?? 3;
  const [labelA, labelB] = options.labels ?? ['expected', 'actual'];
  const ops = diffLines(splitLines(expected), splitLines(actual));
  const changed = ops.flatMap((op, i) => (op.kind === 'same' ? [] : [i]));
  if (changed.length === 0) return `--- ${labelA}\n+++ ${labelB}\n(the texts differ only in line endings)\n`;
  const out = [`--- ${labelA}`, `+++ ${labelB}`];
  let i = 0;
  while (i < changed.length) {
    const from = Math.max(0, changed[i]! - context);
    let to = changed[i]! + context;
    while (i + 1 < changed.length && changed[i + 1]! <= to + context + 1) to = changed[++i]! + context;
    i++;
    const hunk = ops.slice(from, Math.min(ops.length, to + 1));
    const before = ops.slice(0, from);
    const lineA = before.filter((op) => op.kind !== 'added').length;
    const lineB = before.filter((op) => op.kind !== 'removed').length;
    const countA = hunk.filter((op) => op.kind !== 'added').length;
    const countB = hunk.filter((op) => op.kind !== 'removed').length;
    out.push(`@@ -${lineA + (countA ? 1 : 0)},${countA} +${lineB + (countB ? 1 : 0)},${countB} @@`);
    for (const op of hunk) out.push(`${op.kind === 'same' ? ' ' : op.kind === 'removed' ? '-' : '+'} ${op.line}`);
  }
  return `${out.join('\n')}\n`;
}

function splitLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.replace(/\r\n/g, '\n').split('\n');
  if (lines.length > 1 && lines[lines.length - 1] === '') lines.pop();
  return lines;
}
