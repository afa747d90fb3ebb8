import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { catchMaybe, finallyMaybe, thenMaybe } from '../../core/maybe-promise.js';

const test = suite('a promise-or-value step goes on at once when it has a value');

test('when a step has a value, then the next one runs before the call returns, told it was synchronous, and its own value comes back', () => {
  const calls: [number, boolean][] = [];
  const result = thenMaybe(2, (value, synchronous) => {
    calls.push([value, synchronous]);
    return value * 10;
  });
  assert.equal(calls, [[2, true]]);
  assert.is(result, 20);
});

test('when a step has a promise, then the next one runs once it resolves, told it was not synchronous', async () => {
  const calls: [number, boolean][] = [];
  const result = thenMaybe(Promise.resolve(3), (value, synchronous) => {
    calls.push([value, synchronous]);
    return value + 1;
  });
  assert.ok(result instanceof Promise);
  assert.equal(calls, []);
  assert.is(await result, 4);
  assert.equal(calls, [[3, false]]);
});

test('when a promised step rejects, then the next one is skipped and the rejection reaches the caller', async () => {
  let ran = false;
  const result = thenMaybe(Promise.reject(new Error('down')), () => (ran = true));
  const error = await (result as Promise<unknown>).then(
    () => null,
    (e: Error) => e,
  );
  assert.is(error?.message, 'down');
  assert.is(ran, false);
});

test('when a value is given a rejection handler, then the value itself comes back and the handler is never called', () => {
  const response = { status: 200 };
  assert.is(
    catchMaybe(response, () => ({ status: 500 })),
    response,
  );
});

test("when a rejected promise is given a rejection handler, then its answer is the promise's value", async () => {
  assert.equal(
    await catchMaybe(Promise.reject(new Error('listener')), (error) => `answered ${(error as Error).message}`),
    'answered listener',
  );
});

test('when a rejection handler is given a context, then it is handed the context with the error', async () => {
  const context = { request: 'GET /' };
  const answer = await catchMaybe(
    Promise.reject(new Error('late')),
    (error, given: { request: string }) => `${given.request}: ${(error as Error).message}`,
    context,
  );
  assert.is(answer, 'GET /: late');
});

test('when a value is given a closing step, then it runs before the call returns and the value comes back', () => {
  let closed = false;
  assert.is(
    finallyMaybe('done', () => (closed = true)),
    'done',
  );
  assert.is(closed, true);
});

test('when a promise is given a closing step, then it runs once the promise settles, resolved or rejected, and the outcome passes through', async () => {
  const closed: string[] = [];
  const resolved = finallyMaybe(Promise.resolve('ok'), () => closed.push('resolved'));
  const rejected = finallyMaybe(Promise.reject(new Error('no')), () => closed.push('rejected'));
  assert.equal(closed, []);
  assert.is(await resolved, 'ok');
  assert.is(await (rejected as Promise<string>).catch((e: Error) => e.message), 'no');
  assert.equal(closed, ['resolved', 'rejected']);
});

test.run();
