import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import module, { syncBuiltinESMExports } from 'node:module';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { loadApp } from '../../../server/load-app.js';
import {
  forgetMappedStacks,
  formatFrames,
  memoizeSourceMappedStacks,
} from '../../../core/kernel/source-mapped-stacks.js';
import { PACKAGE_ENTRY } from '../../helpers/cli.js';

type Prepare = (error: Error, trace: NodeJS.CallSite[]) => string;
/** Node's own formatter (this suite runs with --enable-source-maps) */
const nodeFormat = Error.prepareStackTrace as Prepare;

/** The error `fail` throws (or rejects with) and the call sites V8 gave for it. */
async function thrown(fail: () => unknown): Promise<{ error: Error; trace: NodeJS.CallSite[] }> {
  let trace: NodeJS.CallSite[] = [];
  const saved = Error.prepareStackTrace;
  Error.prepareStackTrace = (_error, sites) => {
    trace = sites;
    return 'captured';
  };
  try {
    await fail();
  } catch (error) {
    void (error as Error).stack;
    return { error: error as Error, trace };
  } finally {
    Error.prepareStackTrace = saved;
  }
  throw new Error('nothing was thrown');
}

async function assertSameAsNode(fail: () => unknown): Promise<string> {
  const { error, trace } = await thrown(fail);
  assert.ok(trace.length > 0, 'the error has frames');
  const expected = nodeFormat(error, trace);
  assert.is(nodeFormat(error, []) + formatFrames(trace), expected);
  assert.is(nodeFormat(error, []) + formatFrames(trace), expected, 'the second time, from the memo');
  return expected;
}

class Widget {
  constructor(fail: boolean) {
    if (fail) throw new TypeError('the widget cannot be built');
  }

  spin(): never {
    throw new RangeError('the widget spun too far');
  }

  static make(): Widget {
    return new Widget(true);
  }
}

const helpers = {
  nested(): never {
    return [1].map(() => {
      throw new Error('inside a callback of a builtin');
    })[0] as never;
  },
};

async function later(): Promise<never> {
  await new Promise((resolve) => setImmediate(resolve));
  throw new Error('after an await');
}

const test = suite('error stacks read through source maps: the same text as Node prints, each place looked up once');
const dirs: string[] = [];
test.after(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

test("given frames in this TypeScript file, when formatted, then they are Node's text and name the .ts file", async () => {
  const text = await assertSameAsNode(() => Widget.make());
  assert.match(text, /source-mapped-stacks\.test\.ts:\d+:\d+\)/);
  assert.match(text, /at new Widget \(/);
});

test("given a method, a callback of a builtin, an async frame and eval, when formatted, then each is Node's text", async () => {
  await assertSameAsNode(() => new Widget(false).spin());
  assert.match(await assertSameAsNode(() => helpers.nested()), /at Array\.map \(<anonymous>\)/);
  await assertSameAsNode(() => later());
  await assertSameAsNode(() => eval('(function evaluated() { throw new Error("from eval"); })()'));
});

test("given an error of Node's own, when formatted, then its header keeps the [CODE]", async () => {
  const text = await assertSameAsNode(() => Buffer.alloc(-1));
  assert.match(text, /^RangeError \[ERR_OUT_OF_RANGE\]: /);
});

test("given an app file in TypeScript loaded through tsx, when its controller throws, then its frames are Node's text", async () => {
  const dir = mkdtempSync(join(tmpdir(), 'appkernel-stacks-'));
  dirs.push(dir);
  const file = join(dir, 'app.config.ts');
  writeFileSync(
    file,
    `import { createApp } from ${JSON.stringify(PACKAGE_ENTRY)};
interface Order { id: number }
class OrderService {
  find(id: number): Order { return this.check({ id }); }
  private check(order: Order): Order { throw new Error(\`order \${order.id} is missing\`); }
}
const service = new OrderService();
export const app = createApp({ name: 'stacks' }).get('order', '/orders/{id}', ({ params }) => service.find(Number(params.id)));
`,
  );
  const { app } = await loadApp(file);
  const controller = app.controllers.get('order')!;
  const text = await assertSameAsNode(() => controller({ params: { id: '7' } } as never));
  assert.match(text, /app\.config\.ts:5:\d+\)/);
});

test("given it is installed, when an error's stack is read, then it is mapped; installing again changes nothing", async () => {
  const saved = Error.prepareStackTrace;
  try {
    memoizeSourceMappedStacks();
    const installed = Error.prepareStackTrace;
    assert.is.not(installed, saved);
    memoizeSourceMappedStacks();
    assert.is(Error.prepareStackTrace, installed);
    let stack = '';
    try {
      Widget.make();
    } catch (error) {
      stack = (error as Error).stack ?? '';
    }
    assert.match(
      stack,
      /^TypeError: the widget cannot be built\n    at new Widget \(.*source-mapped-stacks\.test\.ts:\d+:\d+\)/,
    );
  } finally {
    Error.prepareStackTrace = saved;
  }
});

test('given a stack read once, when an error from the same call sites is read again, then no source map is looked up', async () => {
  const saved = Error.prepareStackTrace;
  const findSourceMap = module.findSourceMap;
  let lookups = 0;
  /** the stack of an error thrown from the same call sites each time, and the source maps looked up to read it */
  const read = (): { stack: string; lookups: number } => {
    const before = lookups;
    let stack = '';
    try {
      Widget.make();
    } catch (error) {
      stack = (error as Error).stack ?? '';
    }
    return { stack, lookups: lookups - before };
  };
  try {
    memoizeSourceMappedStacks();
    module.findSourceMap = (path: string) => {
      lookups++;
      return findSourceMap(path);
    };
    syncBuiltinESMExports();
    forgetMappedStacks();
    const reads = [1, 2, 3].map(() => read());
    assert.ok(reads[0].lookups > 0, 'the first read maps its frames');
    assert.match(
      reads[0].stack,
      /^TypeError: the widget cannot be built\n    at new Widget \(.*source-mapped-stacks\.test\.ts:\d+:\d+\)/,
    );
    assert.is(reads[1].stack, reads[0].stack);
    assert.is(reads[1].lookups, 0, 'the second read maps nothing');
    forgetMappedStacks();
    const again = [1].map(() => read())[0];
    assert.ok(again.lookups > 0, 'once forgotten (an app reloaded), the frames are mapped again');
  } finally {
    module.findSourceMap = findSourceMap;
    syncBuiltinESMExports();
    Error.prepareStackTrace = saved;
  }
});

test.run();
