import { mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { parseStack } from '../../../core/kernel/stack-frames.js';

const test = suite('parseStack: a stack text parsed again');

const source = (marker: string) =>
  Array.from({ length: 9 }, (_, i) => (i === 4 ? `  throw new Error('${marker}');` : `// line ${i + 1}`)).join('\n');

test('when the same stack is parsed twice after its file changed, then the frames are the same and the excerpt is the file as it reads now', () => {
  const root = mkdtempSync(join(tmpdir(), 'appkernel-stack-'));
  try {
    const file = join(root, 'orders.ts');
    writeFileSync(file, source('first'));
    const stack = `\n    at Orders.find (${file}:5:9)\n    at async handle (node:internal/process/task_queues:95:5)`;
    const before = parseStack(stack, root);
    assert.equal(
      before.map((f) => [f.function, f.file, f.line, f.column, f.kind]),
      [
        ['Orders.find', 'orders.ts', 5, 9, 'app'],
        ['handle', 'node:internal/process/task_queues', 95, 5, 'internal'],
      ],
    );
    assert.match(before[0].excerpt!.lines.join('\n'), /'first'/);
    // Written again with another mtime: an edit that kept the line numbers, as watch mode reloads it.
    writeFileSync(file, source('second'));
    const later = new Date(Date.now() + 5_000);
    utimesSync(file, later, later);
    const after = parseStack(stack, root);
    assert.match(after[0].excerpt!.lines.join('\n'), /'second'/);
    assert.not.match(after[0].excerpt!.lines.join('\n'), /'first'/);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

test('when a caller tries to change frames without excerpts, then they are frozen and the next parse of the same stack is not affected', () => {
  const stack = '\n    at one (node:internal/a:1:2)\n    at two (node:internal/b:3:4)';
  const first = parseStack(stack, '/app');
  assert.throws(() => {
    first[0].function = 'changed';
  }, TypeError);
  assert.throws(() => {
    first.pop();
  }, TypeError);
  const second = parseStack(stack, '/app');
  assert.is(second, first);
  assert.equal(
    second.map((f) => f.function),
    ['one', 'two'],
  );
});

test('when a caller changes app frames it was given (with excerpts), then the next parse of the same stack is not affected', () => {
  const root = mkdtempSync(join(tmpdir(), 'appkernel-stack-'));
  try {
    const file = join(root, 'orders.ts');
    writeFileSync(file, source('first'));
    const stack = `\n    at Orders.find (${file}:5:9)\n    at two (node:internal/b:3:4)`;
    const first = parseStack(stack, root);
    first[0].function = 'changed';
    first.pop();
    const second = parseStack(stack, root);
    assert.is.not(second, first);
    assert.equal(
      second.map((f) => f.function),
      ['Orders.find', 'two'],
    );
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

test('when the app is reloaded and its stack text changes (source maps moved its lines), then its frames are parsed anew', () => {
  const before = parseStack('\n    at handle (node:internal/a:10:2)', '/app');
  const after = parseStack('\n    at handle (node:internal/a:12:2)', '/app');
  assert.is.not(after, before);
  assert.equal([before[0].line, after[0].line], [10, 12]);
});

test.run();
