import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { RequestRecorder } from '../../../core/debug/request-scope.js';
import { countRun, STACKED_RUNS } from '../../../core/debug/statement-runs.js';

const test = suite('which runs of a statement take their stack: the first ones of each step of a request');

function recorder(): RequestRecorder & { at: number } {
  const r = { at: 0, origin: 0, elapsed: () => 0, add: () => {}, step: () => r.at };
  return r;
}

const takes = (r: RequestRecorder, sql: string, runs: number, stackedRuns?: number) =>
  Array.from({ length: runs }, () => countRun(r, sql, stackedRuns).takesStack);

test('when a statement runs 4 times in one step, then only its first run takes its stack by default', () => {
  assert.is(STACKED_RUNS, 1);
  assert.equal(takes(recorder(), 'SELECT 1', 4), [true, false, false, false]);
});

test('when --query-stacks is 3, all or 0, then the first 3 runs, every run or none take their stack', () => {
  assert.equal(takes(recorder(), 'SELECT 1', 5, 3), [true, true, true, false, false]);
  assert.equal(takes(recorder(), 'SELECT 1', 5, Number.POSITIVE_INFINITY), [true, true, true, true, true]);
  assert.equal(takes(recorder(), 'SELECT 1', 3, 0), [false, false, false]);
});

test('when the request moves to another step (a listener, then the controller), then the next run takes its stack again', () => {
  const r = recorder();
  assert.equal(takes(r, 'SELECT 1', 2), [true, false]);
  r.at = 5;
  assert.equal(takes(r, 'SELECT 1', 2), [true, false]);
  assert.is(countRun(r, 'SELECT 1').count, 5);
  r.at = 9;
  assert.equal(takes(r, 'SELECT 1', 4, 3), [true, true, true, false]);
});

test('when two statements or two requests run, then each counts its own runs', () => {
  const a = recorder();
  const b = recorder();
  assert.equal(takes(a, 'SELECT 1', 2), [true, false]);
  assert.equal(takes(a, 'SELECT 2', 2), [true, false]);
  assert.equal(takes(b, 'SELECT 1', 2), [true, false]);
});

test('when a recorder tells no step, then the request is one step', () => {
  const r: RequestRecorder = { origin: 0, elapsed: () => 0, add: () => {} };
  assert.equal(takes(r, 'SELECT 1', 3), [true, false, false]);
});

test.run();
