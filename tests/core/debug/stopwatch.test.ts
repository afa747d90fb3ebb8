import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { AppError } from '../../../core/errors.js';
import { Stopwatch, type Span } from '../../../core/debug/stopwatch.js';

const test = suite('Stopwatch: named spans on the request clock, nested, measured, misuse a clear error');

function stopwatch(): { watch: Stopwatch; spans: Span[]; tick: (ms: number) => void } {
  let now = 0;
  const spans: Span[] = [];
  return {
    watch: new Stopwatch(
      () => now,
      (span) => spans.push(span),
    ),
    spans,
    tick: (ms) => {
      now += ms;
    },
  };
}

test('when spans are started and stopped, nested and repeated, then each has its start and duration on the clock', () => {
  const { watch, spans, tick } = stopwatch();
  watch.start('outer');
  tick(2);
  watch.start('inner');
  tick(3);
  assert.is(watch.stop('inner'), 3);
  watch.start('inner');
  tick(1);
  watch.stop('inner');
  assert.is(watch.stop('outer'), 6);
  assert.equal(spans, [
    { name: 'outer', start: 0, duration: 6 },
    { name: 'inner', start: 2, duration: 3 },
    { name: 'inner', start: 5, duration: 1 },
  ]);
});

test('when measure() runs a function that resolves or throws, then its span is stopped either way', async () => {
  const { watch, spans, tick } = stopwatch();
  assert.is(
    await watch.measure('ok', async () => {
      tick(4);
      return 7;
    }),
    7,
  );
  await watch
    .measure('fails', () => {
      tick(1);
      throw new Error('nope');
    })
    .then(
      () => assert.unreachable(),
      (error: Error) => assert.is(error.message, 'nope'),
    );
  assert.equal(
    spans.map((span) => [span.name, span.duration]),
    [
      ['ok', 4],
      ['fails', 1],
    ],
  );
});

test('when a span is stopped without a start, or named with no string, then APP_ERR_DEBUG_STOPWATCH with a one-line message', () => {
  const { watch } = stopwatch();
  assert.throws(
    () => watch.stop('never'),
    (e: unknown) =>
      e instanceof AppError &&
      e.code === 'APP_ERR_DEBUG_STOPWATCH' &&
      e.message === 'The stopwatch span "never" was stopped but never started.',
  );
  assert.throws(
    () => watch.start(''),
    (e: unknown) => e instanceof AppError && /non-empty string name \(empty string given\)/.test(e.message),
  );
  assert.throws(
    () => watch.start(42 as unknown as string),
    (e: unknown) => e instanceof AppError && /\(number given\)/.test(e.message),
  );
});

test.run();
