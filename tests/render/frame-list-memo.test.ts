import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { Frame } from '../../core/kernel/exception-data.js';
import { renderFrameList } from '../../render/frame-list.js';
import { renderStackTraces } from '../../render/stack-traces.js';

const test = suite('renderFrameList: frozen frames rendered once');

const frames = (): Frame[] => [
  { function: 'Orders.find', file: 'src/orders.ts', line: 5, column: 9, kind: 'app' },
  { function: 'handle', file: 'node:internal/a', line: 1, column: 2, kind: 'internal' },
];
const frozen = (list: Frame[]): Frame[] => Object.freeze(list.map((f) => Object.freeze(f))) as Frame[];
const editor = (root: string) => ({ editor: { template: 'vscode://file/%f:%l', root } });

test('when the frames are frozen, then the HTML is the same as for the same frames unfrozen, with and without editor links', () => {
  const shared = frozen(frames());
  for (let i = 0; i < 2; i++) {
    assert.is(renderFrameList(shared), renderFrameList(frames()));
    assert.is(renderFrameList(shared, editor('/a')), renderFrameList(frames(), editor('/a')));
    assert.is(renderFrameList(shared, editor('/b')), renderFrameList(frames(), editor('/b')));
  }
  assert.is.not(renderFrameList(shared, editor('/a')), renderFrameList(shared, editor('/b')));
});

test('when other frozen frames come, then they are rendered for themselves', () => {
  const one = frozen(frames());
  const other = frozen([{ function: 'other', file: 'node:internal/b', line: 3, column: 4, kind: 'internal' }]);
  assert.match(renderFrameList(one), /Orders\.find/);
  assert.match(renderFrameList(other), /other/);
  assert.not.match(renderFrameList(other), /Orders\.find/);
});

test('when the traces are rendered from frozen frames, then the text is the same as from unfrozen ones', () => {
  const record = (list: Frame[]) => ({
    chain: [{ class: 'Error', message: 'm', status: 500, headers: {}, frames: list }],
  });
  const shared = frozen(frames());
  assert.is(renderStackTraces(record(shared)), renderStackTraces(record(frames())));
  assert.is(renderStackTraces(record(shared)), renderStackTraces(record(frames())));
});

test.run();
