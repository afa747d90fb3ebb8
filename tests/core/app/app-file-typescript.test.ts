import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { load } from 'cheerio';
import { PACKAGE_ENTRY, startServe, type ServeProcess } from '../../helpers/cli.js';
import { fetchText } from '../../helpers/serve.js';

// The throw is on line 6 of stock.ts; the types before it vanish from the compiled code.
const HELPER = `interface Item { name: string; count: number }
type Checked = { ok: boolean };

export function checkStock(item: Item): Checked {
  const wanted: number = item.count + 1;
  throw new RangeError(\`Only \${item.count} of \${wanted} \${item.name} in stock.\`);
}
`;

function appSource(helperSpecifier: string): string {
  return `import { createApp, Response, HttpError } from ${JSON.stringify(PACKAGE_ENTRY)};
import { checkStock } from ${JSON.stringify(helperSpecifier)};

export const app = createApp()
  .get('stock', '/stock', () => checkStock({ name: 'widgets', count: 2 }))
  .get('created', '/created', () => new Response('made', 201, { 'Content-Type': 'text/plain' }))
  .get('gone', '/gone', () => { throw new HttpError(410, 'This page is gone.'); });
`;
}

/** One folder per module system: none (CommonJS by default) and "type": "module". */
for (const [label, packageJson, specifier] of [
  ['a folder without package.json (CommonJS scope)', null, './stock'],
  ['a "type": "module" package', '{ "type": "module" }', './stock.js'],
  ['a "type": "commonjs" package importing with the .ts extension', '{ "type": "commonjs" }', './stock.ts'],
] as const) {
  const test = suite(`an app file importing a local TypeScript module, in ${label}`);
  let dir: string;
  let serve: ServeProcess;

  test.before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'appkernel-appfile-'));
    if (packageJson) writeFileSync(join(dir, 'package.json'), packageJson);
    writeFileSync(join(dir, 'stock.ts'), HELPER);
    writeFileSync(join(dir, 'app.config.ts'), appSource(specifier));
    serve = await startServe(['--store', join(dir, 'store'), '--no-watch'], { cwd: dir });
  });

  test.after(async () => {
    await serve.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  test('when its controller throws in the imported module, then the page names stock.ts line 6 and shows that source line', async () => {
    const r = await fetchText(`${serve.base}/stock`);
    assert.is(r.status, 500, serve.output());
    const text = load(r.body).root().text();
    assert.ok(text.includes('Only 2 of 3 widgets in stock.'), text.slice(0, 500));
    assert.match(text, /checkStock in stock\.ts line 6/);
    assert.ok(text.includes('throw new RangeError(`Only ${item.count}'), 'the excerpt shows the TypeScript source');
    assert.not.match(text, /data:text\/javascript| in stock\.js line/);
  });

  test("when a controller returns appkernel's Response, then its status, headers and body are sent as they are", async () => {
    const r = await fetchText(`${serve.base}/created`);
    assert.is(r.status, 201);
    assert.is(r.headers['content-type'], 'text/plain');
    assert.is(r.body, 'made');
  });

  test("when a controller throws appkernel's HttpError, then its status is the answer's", async () => {
    const r = await fetchText(`${serve.base}/gone`);
    assert.is(r.status, 410);
    assert.ok(load(r.body).root().text().includes('This page is gone.'));
  });

  test.run();
}
