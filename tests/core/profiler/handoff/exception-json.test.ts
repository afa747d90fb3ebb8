import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { ExceptionData, Frame } from '../../../../core/kernel/exception-data.js';
import { flattenException } from '../../../../core/kernel/flatten-exception.js';
import { exceptionJson } from '../../../../core/profiler/handoff/exception-json.js';

const test = suite('exceptionJson');

const frames = (): Frame[] => [
  {
    function: 'Orders.find',
    file: 'src/orders.ts',
    line: 5,
    column: 9,
    kind: 'app',
    excerpt: { start: 1, lines: ['a', '"b"'] },
  },
  { function: 'handle', file: null, line: null, column: null, kind: 'internal' },
];
const frozen = (list: Frame[]): Frame[] => Object.freeze(list.map((f) => Object.freeze(f))) as Frame[];
const chain = (a: Frame[], b: Frame[]): ExceptionData => ({
  chain: [
    {
      class: 'NotFoundHttpError',
      message: 'No route found for "GET /x"\n<b>',
      status: 404,
      headers: { 'x-a': '1' },
      frames: a,
    },
    { class: 'ResourceNotFoundError', message: '', status: 500, headers: {}, frames: b },
  ],
});

test("when frames are frozen or not, then the text is JSON.stringify's, again and again", () => {
  const shared = frozen(frames());
  for (let i = 0; i < 3; i++) {
    assert.is(exceptionJson(chain(shared, frames())), JSON.stringify(chain(shared, frames())));
    assert.is(exceptionJson(chain(frames(), shared)), JSON.stringify(chain(frames(), shared)));
    assert.is(exceptionJson(chain(shared, shared)), JSON.stringify(chain(shared, shared)));
  }
  assert.is(exceptionJson({ chain: [] }), JSON.stringify({ chain: [] }));
});

test("when frames are not the record's last field, then the text is still JSON.stringify's", () => {
  const shared = frozen(frames());
  const data = { chain: [{ frames: shared, class: 'E', message: 'm', status: 500, headers: {} }] } as ExceptionData;
  assert.is(exceptionJson(data), JSON.stringify(data));
});

test("when an error thrown twice from one place is flattened, then its frames are shared and its JSON is JSON.stringify's", () => {
  const make = () => {
    const inner = new TypeError('inner');
    inner.stack = 'TypeError: inner\n    at match (node:internal/a:1:2)\n    at handle (node:internal/b:3:4)';
    const error = new Error('again', { cause: inner });
    error.stack = 'Error: again\n    at handle (node:internal/b:3:4)';
    return error;
  };
  const [one, two] = [flattenException(make(), '/nowhere'), flattenException(make(), '/nowhere')];
  assert.ok(Object.isFrozen(one.chain[0].frames));
  assert.is(two.chain[1].frames, one.chain[1].frames);
  assert.is(exceptionJson(two), JSON.stringify(two));
});

test.run();
